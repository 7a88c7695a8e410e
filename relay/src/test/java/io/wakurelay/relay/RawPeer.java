package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.Hello;
import io.wakurelay.protocol.proto.Pong;
import io.wakurelay.protocol.proto.Publish;
import io.wakurelay.protocol.proto.WakuMessage;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Collection;

/**
 * A peer made of a plain {@link Socket}, for the cases a well-behaved relay cannot produce: garbage, oversized
 * or truncated frames, no Hello, never reading, not answering Pings.
 */
final class RawPeer implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RawPeer(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    static RawPeer connect(InetSocketAddress address) throws IOException {
        Socket socket = new Socket();
        socket.connect(address, 5_000);
        socket.setTcpNoDelay(true);
        return new RawPeer(socket);
    }

    /** A peer whose connection comes from {@code local} (any 127.x.y.z works on Linux loopback). */
    static RawPeer connectFrom(InetSocketAddress address, InetAddress local) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(local, 0));
        socket.connect(address, 5_000);
        socket.setTcpNoDelay(true);
        return new RawPeer(socket);
    }

    /** A peer over TLS: connects and completes the TLS handshake (as far as the client can tell). */
    static RawPeer connect(InetSocketAddress address, SSLSocketFactory tls) throws IOException {
        SSLSocket socket = (SSLSocket) tls.createSocket();
        socket.connect(address, 5_000);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return new RawPeer(socket);
    }

    /** A peer with a small receive buffer, so that not reading fills its end of the connection quickly. */
    static RawPeer connectWithReceiveBuffer(InetSocketAddress address, int bytes) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(bytes);
        socket.connect(address, 5_000);
        return new RawPeer(socket);
    }

    static Frame hello(String nodeId, Collection<String> topics) {
        return Frame.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(1).setNodeId(nodeId)
                .addAllPubsubTopics(topics)).build();
    }

    static Frame publish(String topic, WakuMessage message) {
        return Frame.newBuilder().setPublish(Publish.newBuilder().setPubsubTopic(topic)
                .setMessage(message.toByteString())).build();
    }

    static Frame publish(String topic, ByteString rawMessage) {
        return Frame.newBuilder().setPublish(Publish.newBuilder().setPubsubTopic(topic).setMessage(rawMessage)).build();
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

    RawPeer send(Frame frame) throws IOException {
        frame.writeDelimitedTo(out);
        out.flush();
        return this;
    }

    RawPeer sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Completes the handshake: sends Hello and reads the relay's Hello. */
    Hello handshake(String nodeId, Collection<String> topics) throws IOException {
        send(hello(nodeId, topics));
        Frame frame = read(Duration.ofSeconds(10));
        if (frame == null || !frame.hasHello()) {
            throw new AssertionError("expected the relay's Hello, got " + frame);
        }
        return frame.getHello();
    }

    /** The next frame, or null when the relay closed the connection. */
    Frame read(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        try {
            return Frame.parseDelimitedFrom(in);
        } catch (SocketException e) {
            return null; // reset by the relay
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no frame within " + timeout, e);
        }
    }

    /** Reads (answering Pings unless told not to) until a Goodbye arrives; fails if the connection ends first. */
    Goodbye awaitGoodbye(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Frame frame = read(timeout);
            if (frame == null) {
                throw new AssertionError("connection closed without a Goodbye");
            }
            if (frame.hasGoodbye()) {
                return frame.getGoodbye();
            }
        }
        throw new AssertionError("no Goodbye within " + timeout);
    }

    /** True once the relay has closed the connection (reads end), within the timeout. */
    boolean closedWithin(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        byte[] sink = new byte[8192];
        try {
            while (in.read(sink) >= 0) {
                // discard whatever is still in flight
            }
            return true;
        } catch (SocketException | EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    void pong(long nonce) throws IOException {
        send(Frame.newBuilder().setPong(Pong.newBuilder().setNonce(nonce)).build());
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
