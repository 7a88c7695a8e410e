package io.wakurelay.node;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.Hello;
import io.wakurelay.protocol.proto.Publish;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * A node's peer port spoken to over a plain blocking socket: well-formed frames when wanted, anything else when
 * not. Blocking writes are TCP backpressure: a write returns only when the node's side has taken the bytes.
 */
final class PeerSocket implements AutoCloseable {
    static final String TOPIC = "/waku/2/rs/0/0";

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private PeerSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    static PeerSocket connect(InetSocketAddress address) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(address, 15_000);
            socket.setTcpNoDelay(true);
            return new PeerSocket(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    static byte[] bytes(Frame frame) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try {
            frame.writeDelimitedTo(buffer);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return buffer.toByteArray();
    }

    static Frame hello(String nodeId) {
        return Frame.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(1).setNodeId(nodeId).addPubsubTopics(TOPIC)).build();
    }

    static Frame publish(WakuMessage message) {
        return publish(message.toByteString());
    }

    static Frame publish(ByteString rawMessage) {
        return Frame.newBuilder().setPublish(Publish.newBuilder().setPubsubTopic(TOPIC).setMessage(rawMessage)).build();
    }

    /** Sends Hello and reads the node's Hello (answering nothing else). */
    void handshake(String nodeId) throws IOException {
        send(hello(nodeId));
        Frame frame = read(Duration.ofSeconds(15));
        if (frame == null || !frame.hasHello()) {
            throw new IOException("expected the node's Hello, got " + frame);
        }
    }

    void send(Frame frame) throws IOException {
        frame.writeDelimitedTo(out);
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next frame, or null when the node closed the connection. */
    Frame read(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        try {
            return Frame.parseDelimitedFrom(in);
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            return null; // reset
        }
    }

    /**
     * Reads until the node closes the connection (answering nothing); returns the Goodbye it sent, if any, or
     * throws {@link SocketTimeoutException} when it is still open after {@code timeout}.
     */
    Goodbye.Reason awaitClose(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Goodbye.Reason reason = null;
        while (true) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            if (System.nanoTime() > deadline) {
                throw new SocketTimeoutException("still open after " + timeout);
            }
            Frame frame;
            try {
                frame = read(Duration.ofMillis(left));
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                return reason; // cut in the middle of a frame: closed
            }
            if (frame == null) {
                return reason;
            }
            if (frame.hasGoodbye()) {
                reason = frame.getGoodbye().getReason();
            }
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }
}
