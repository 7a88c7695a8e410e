package io.wakurelay.node;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One keep-alive connection keeps being served when a request arrives while the previous answer is still being
 * finished: here a Store page, written from a worker thread, followed at once by a request answered on the spot.
 * Reactor Netty 1.3.7 then stopped reading the connection, and the request after those two waited for good (the rare
 * CI hang of a REST test: docs/reliability.md, "Known intermittent failures"); 1.3.8 fixed it (reactor-netty#4347).
 */
class RestKeepAliveTest {
    @TempDir
    static Path dataDir;
    static WakuNode node;

    @BeforeAll
    static void start() {
        node = WakuNode.start(TestNodes.local(dataDir).build());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void aRequestQueuedBehindAStorePageAndAnsweredAtOnceLeavesTheConnectionReadingTheNext() throws IOException {
        InetSocketAddress rest = node.restAddress();
        String host = rest.getHostString() + ":" + rest.getPort();
        try (Socket socket = new Socket(rest.getAddress(), rest.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            for (int round = 0; round < 20; round++) {
                // the two requests in one write: the second is queued while the page is still being written
                out.write((get("/store/v3/messages?pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0", host) + get("/nope", host))
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readResponse(in)).as("round %d: the store page", round).startsWith("HTTP/1.1 200");
                assertThat(readResponse(in)).as("round %d: the unknown path", round).startsWith("HTTP/1.1 404");
                out.write(get("/health", host).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readResponse(in)).as("round %d: the request after them is answered", round).startsWith("HTTP/1.1 ");
            }
        }
    }

    private static String get(String path, String host) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
    }

    /** One HTTP/1.1 response, its body read by Content-Length or chunk by chunk. */
    private static String readResponse(InputStream in) throws IOException {
        String head;
        try {
            head = readUntil(in, "\r\n\r\n");
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within 10 s: the server stopped reading the connection", e);
        }
        String lower = head.toLowerCase();
        int length = lower.indexOf("content-length:");
        if (length >= 0) {
            int end = lower.indexOf("\r\n", length);
            end = end < 0 ? head.length() : end; // the last header line
            in.readNBytes(Integer.parseInt(head.substring(length + 15, end).trim()));
        } else if (lower.contains("transfer-encoding: chunked")) {
            while (true) {
                int size = Integer.parseInt(readUntil(in, "\r\n").trim(), 16);
                in.readNBytes(size + 2);
                if (size == 0) {
                    break;
                }
            }
        }
        return head;
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (!read.toString(StandardCharsets.US_ASCII).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("the server closed the connection after: " + read.toString(StandardCharsets.US_ASCII));
            }
            read.write(b);
        }
        String text = read.toString(StandardCharsets.US_ASCII);
        return text.substring(0, text.length() - end.length());
    }
}
