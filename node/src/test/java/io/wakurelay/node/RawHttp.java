package io.wakurelay.node;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one request per connection ({@code Connection: close}), for requests that
 * {@link java.net.http.HttpClient} refuses to send: odd methods, broken request lines, raw bytes in paths and
 * query strings, bodies that do not match their headers.
 */
final class RawHttp {
    /** What came back: the status (-1 when the server closed without answering) and the body as text. */
    record Reply(int status, String head, String body, boolean writeFailed) {
    }

    /** Status when the server neither answered nor closed within the read timeout. */
    static final int HELD_OPEN = -2;

    private final InetSocketAddress address;
    private final int readTimeoutMillis;

    RawHttp(InetSocketAddress address) {
        this(address, 30_000);
    }

    RawHttp(InetSocketAddress address, int readTimeoutMillis) {
        this.address = address;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** Sends {@code method target} with a body (may be null) and the usual headers. */
    Reply request(String method, String target, byte[] body, String contentType) {
        return request(method, target, body, contentType, Map.of());
    }

    /** As {@link #request(String, String, byte[], String)}, with more headers; a {@code Host} among them replaces the usual one. */
    Reply request(String method, String target, byte[] body, String contentType, Map<String, String> headers) {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(headers.getOrDefault("Host", address.getHostString() + ":" + address.getPort())).append("\r\n")
                .append("Connection: close\r\n");
        headers.forEach((name, value) -> {
            if (!name.equals("Host")) {
                head.append(name).append(": ").append(value).append("\r\n");
            }
        });
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + (body == null ? 0 : body.length)];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        if (body != null) {
            System.arraycopy(body, 0, all, headBytes.length, body.length);
        }
        return raw(all);
    }

    /** Sends exactly these bytes and reads whatever comes back until the server closes or the read timeout passes. */
    Reply raw(byte[] request) {
        try (Socket socket = new Socket()) {
            socket.connect(address, 5_000);
            socket.setSoTimeout(readTimeoutMillis);
            boolean writeFailed = false;
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush(); // no half-close: the server would take it for the end of the connection
            } catch (IOException e) {
                writeFailed = true; // the server answered and closed before reading everything (e.g. 413)
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] chunk = new byte[8192];
            try {
                for (int n; (n = in.read(chunk)) >= 0; ) {
                    received.write(chunk, 0, n);
                }
            } catch (SocketTimeoutException e) {
                if (received.size() == 0) {
                    return new Reply(HELD_OPEN, "", "", writeFailed);
                }
                // answered, but the connection was kept open: take the answer
            } catch (IOException e) {
                // reset after the response: keep what arrived
            }
            return parse(received.toByteArray(), writeFailed);
        } catch (IOException e) {
            throw new AssertionError("cannot connect to " + address + ": " + e, e);
        }
    }

    static String preview(byte[] request) {
        String s = new String(request, 0, Math.min(request.length, 200), StandardCharsets.ISO_8859_1);
        return s.replace("\r", "\\r").replace("\n", "\\n") + (request.length > 200 ? "...(" + request.length + " bytes)" : "");
    }

    private static Reply parse(byte[] bytes, boolean writeFailed) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1); // one char per byte, for chunk sizes
        if (!text.startsWith("HTTP/")) {
            return new Reply(-1, text, "", writeFailed);
        }
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        String body = end < 0 ? "" : text.substring(end + 4);
        int status = Integer.parseInt(head.substring(9, 12));
        if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
            body = dechunk(body);
        }
        return new Reply(status, head, new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8), writeFailed);
    }

    private static String dechunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int i = 0;
        while (i < chunked.length()) {
            int eol = chunked.indexOf("\r\n", i);
            if (eol < 0) {
                break;
            }
            int size = Integer.parseInt(chunked.substring(i, eol).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, eol + 2, Math.min(chunked.length(), eol + 2 + size));
            i = eol + 2 + size + 2;
        }
        return body.toString();
    }
}
