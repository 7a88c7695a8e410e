package io.wakurelay.p2p;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A hand-written WebSocket client on a plain socket, to send what no honest client sends. */
final class RawWebSocket implements Closeable {
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;

    private final Socket socket = new Socket();
    private final InputStream in;

    RawWebSocket(InetSocketAddress address) throws IOException {
        this(address, 0);
    }

    /** @param receiveBufferBytes the socket's receive buffer, set before connecting (0: the system's) */
    RawWebSocket(InetSocketAddress address, int receiveBufferBytes) throws IOException {
        if (receiveBufferBytes > 0) {
            socket.setReceiveBufferSize(receiveBufferBytes);
        }
        socket.connect(address, 2000);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
    }

    static String upgradeRequest(String path, int port) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    }

    void send(String ascii) throws IOException {
        send(ascii.getBytes(StandardCharsets.US_ASCII));
    }

    void send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** The status line and headers of an HTTP response, up to its blank line. */
    String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** Everything until the server closes the connection; fails with a timeout when it does not within 10 s. */
    byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    /** Whether the server closed the connection within {@code within}, discarding what it sent until then. */
    boolean closedWithin(Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        try {
            byte[] buffer = new byte[4096];
            while (in.read(buffer) >= 0) {
                // discard
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    /** A masked client frame (FIN set) with {@code payload}. */
    static byte[] frame(int opcode, byte[] payload) {
        return frameHeader(opcode, payload.length, payload);
    }

    /**
     * A masked frame header announcing {@code length} bytes, followed by {@code payload} masked (which may be shorter
     * than announced, to announce a frame without sending it).
     */
    static byte[] frameHeader(int opcode, long length, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x80 | opcode);
        if (length < 126) {
            out.write(0x80 | (int) length);
        } else if (length < 65536) {
            out.write(0x80 | 126);
            out.write((int) (length >>> 8));
            out.write((int) length);
        } else {
            out.write(0x80 | 127);
            for (int i = 7; i >= 0; i--) {
                out.write((int) (length >>> (8 * i)));
            }
        }
        byte[] mask = {1, 2, 3, 4};
        out.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            out.write(payload[i] ^ mask[i % 4]);
        }
        return out.toByteArray();
    }

    /**
     * The status code of the first close frame among the server's frames in {@code bytes} (unmasked, as a server
     * sends them), or -1.
     */
    static int closeStatus(byte[] bytes) {
        int i = 0;
        while (i + 2 <= bytes.length) {
            int opcode = bytes[i] & 0x0f;
            long length = bytes[i + 1] & 0x7f;
            int at = i + 2;
            if (length == 126) {
                length = ((bytes[at] & 0xff) << 8) | (bytes[at + 1] & 0xff);
                at += 2;
            } else if (length == 127) {
                length = 0;
                for (int k = 0; k < 8; k++) {
                    length = (length << 8) | (bytes[at + k] & 0xff);
                }
                at += 8;
            }
            if (opcode == 0x8 && length >= 2 && at + 2 <= bytes.length) {
                return ((bytes[at] & 0xff) << 8) | (bytes[at + 1] & 0xff);
            }
            i = at + (int) length;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
