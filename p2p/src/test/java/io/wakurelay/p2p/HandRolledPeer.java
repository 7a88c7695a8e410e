package io.wakurelay.p2p;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.mss.MultistreamSelect;
import io.wakurelay.p2p.mux.YamuxSession;
import io.wakurelay.p2p.noise.CipherState;
import io.wakurelay.p2p.noise.NoiseHandshake;
import io.wakurelay.p2p.noise.NoiseHandshakeHandler;
import io.wakurelay.p2p.noise.NoisePayload;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A libp2p dialer written by hand on a blocking socket, for tests that play a peer no honest host would be: one that
 * never reads, or proves itself with a key a host should refuse. It speaks multistream-select and the Noise XX
 * handshake as the initiator, then writes whatever plaintext the test gives it in Noise messages, and reads only
 * what the handshake needs. Every frame it sends is built by the test.
 */
final class HandRolledPeer implements AutoCloseable {
    static final int YAMUX_DATA = 0;
    static final int YAMUX_PING = 2;
    static final int YAMUX_SYN = 1;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private CipherState sender;

    private HandRolledPeer(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Connects from {@code from} (any 127.0.0.x) to {@code target}.
     *
     * @param receiveBufferBytes the socket's receive buffer, set before connecting so that the window it offers is
     *                           small too (0: the system's)
     */
    static HandRolledPeer connect(InetSocketAddress target, InetAddress from, int receiveBufferBytes) throws IOException {
        Socket s = new Socket();
        try {
            if (receiveBufferBytes > 0) {
                s.setReceiveBufferSize(receiveBufferBytes);
            }
            s.bind(new InetSocketAddress(from, 0));
            s.connect(target, 2000);
            s.setSoTimeout(10_000);
            s.setTcpNoDelay(true);
            return new HandRolledPeer(s);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** Agrees on Noise and runs its handshake, proving {@code identity}. */
    void secure(PrivateKey identity) throws IOException {
        secure(staticKey -> NoisePayload.create(identity, staticKey, List.of()));
    }

    /**
     * Agrees on Noise and runs its handshake; the third message carries {@code payload.apply(our static key)}, a
     * NoiseHandshakePayload the test builds (it may be one no host should accept).
     */
    void secure(UnaryOperator<byte[]> payload) throws IOException {
        ByteBuf proposal = Unpooled.buffer();
        MultistreamSelect.writeMessage(proposal, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(proposal, NoiseHandshakeHandler.PROTOCOL_ID);
        byte[] expected = bytes(proposal);
        out.write(expected);
        byte[] answer = new byte[expected.length];
        in.readFully(answer);
        if (!Arrays.equals(answer, expected)) {
            throw new IOException("the host did not take /noise");
        }
        NoiseHandshake handshake = NoiseHandshake.initiator();
        writeFramed(handshake.writeMessage(new byte[0]));
        byte[] second = new byte[in.readUnsignedShort()];
        in.readFully(second);
        handshake.readMessage(second); // the host's payload: who it is does not matter here
        writeFramed(handshake.writeMessage(payload.apply(handshake.localStaticKey())));
        sender = handshake.split().sender();
    }

    /** Proposes yamux inside Noise; the host takes it as it reads it, so there is no need to read its answer. */
    void selectYamux() throws IOException {
        ByteBuf proposal = Unpooled.buffer();
        MultistreamSelect.writeMessage(proposal, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(proposal, YamuxSession.PROTOCOL_ID);
        send(bytes(proposal));
    }

    /** Encrypts {@code plaintext} into Noise messages and writes them; blocks while the host reads nothing. */
    void send(byte[] plaintext) throws IOException {
        byte[] message = new byte[2 + CipherState.MAX_MESSAGE_LENGTH];
        for (int at = 0; at < plaintext.length; at += CipherState.MAX_PLAINTEXT_LENGTH) {
            int n = Math.min(CipherState.MAX_PLAINTEXT_LENGTH, plaintext.length - at);
            int length = sender.encrypt(ByteBuffer.wrap(plaintext, at, n),
                    ByteBuffer.wrap(message, 2, CipherState.MAX_MESSAGE_LENGTH));
            message[0] = (byte) (length >>> 8);
            message[1] = (byte) length;
            out.write(message, 0, 2 + length);
        }
    }

    /** A yamux frame header. */
    static byte[] yamuxHeader(int type, int flags, int streamId, int length) {
        return ByteBuffer.allocate(12).put((byte) 0).put((byte) type).putShort((short) flags).putInt(streamId)
                .putInt(length).array();
    }

    /**
     * Reads (and throws away) what the host sends until it closes the connection.
     *
     * @return false when the host kept it open for the socket's read timeout
     */
    boolean awaitClosedByHost() {
        try {
            InputStream input = socket.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            while (input.read(buffer) >= 0) {
                // discard
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private void writeFramed(byte[] message) throws IOException {
        out.write(new byte[]{(byte) (message.length >>> 8), (byte) message.length});
        out.write(message);
    }

    private static byte[] bytes(ByteBuf buffer) {
        byte[] b = new byte[buffer.readableBytes()];
        buffer.readBytes(b);
        buffer.release();
        return b;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
