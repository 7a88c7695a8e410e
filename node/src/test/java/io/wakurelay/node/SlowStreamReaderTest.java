package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Server-Sent Events reader that never reads: its stream's bounded buffer overflows, it loses events
 * (counted in {@code waku_rest_streams_dropped_total}) and, once a whole buffer's worth was dropped in a row, it
 * is disconnected and its slot freed; a reader beside it gets every event, publishing keeps answering 200 and
 * every message is archived.
 */
class SlowStreamReaderTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final int MESSAGES = 1000;

    @TempDir
    Path dir;

    @Test
    void aStreamReaderThatNeverReadsIsDisconnectedWithoutSlowingTheNodeOrOtherReaders() throws Exception {
        try (WakuNode node = WakuNode.start(NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--tcp-port", "0", "--rest-port", "0",
                "--metrics-server-port", "0"}, Map.of()));
             Socket stuck = new Socket()) {
            Http rest = new Http(node.restAddress());
            stuck.setReceiveBufferSize(4096);
            stuck.connect(node.restAddress(), 5_000);
            stuck.getOutputStream().write(("GET /relay/v1/stream/" + Http.topic(TOPIC) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            stuck.getOutputStream().flush();
            InputStream in = stuck.getInputStream();
            byte[] head = new byte[64];
            assertThat(new String(head, 0, in.read(head), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
            // ... and from here on it reads nothing more
            BlockingQueue<JsonNode> events = rest.stream("/relay/v1/stream/" + Http.topic(TOPIC));
            Eventually.until(Duration.ofSeconds(10), "both streams are open", () -> node.metrics().scrape().contains("waku_rest_streams_open 2.0"));

            String payload = Base64.getEncoder().encodeToString(new byte[10_000]);
            List<String> published = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                long timestamp = WakuNode.nowNanos();
                Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC),
                        "{\"payload\":\"" + payload + "\",\"contentTopic\":\"/app/1/sse/proto\",\"timestamp\":" + timestamp + ",\"meta\":\""
                                + Base64.getEncoder().encodeToString(("m" + i).getBytes()) + "\"}");
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            }
            Set<String> received = new HashSet<>();
            while (received.size() < MESSAGES) {
                JsonNode event = events.poll(30, TimeUnit.SECONDS);
                assertThat(event).as("the reading stream got event %d of %d", received.size() + 1, MESSAGES).isNotNull();
                received.add(event.get("messageHash").asText());
            }
            assertThat(received).hasSize(MESSAGES);
            published.addAll(received);
            double dropped = Http.metric(node.metrics().scrape(), "waku_rest_streams_dropped_total");
            assertThat(dropped).as("events dropped for the reader that never reads").isPositive();
            Eventually.until(Duration.ofSeconds(30), "every message is archived", () -> ArchiveOverloadTest.stored(rest, published) == MESSAGES);
            String scrape = node.metrics().scrape();
            assertThat(Http.metric(scrape, "waku_rest_streams_disconnected_total")).as("stuck readers disconnected").isEqualTo(1.0);
            Eventually.until(Duration.ofSeconds(10), "the stuck stream's slot is freed",
                    () -> Http.metric(node.metrics().scrape(), "waku_rest_streams_open") == 1.0);
            // the stuck client, reading at last, finds what the kernel still held for it and then the end of the stream
            stuck.setSoTimeout(10_000);
            long leftover = 0;
            try {
                for (int n; (n = in.read(new byte[65536])) >= 0; ) {
                    leftover += n;
                }
            } catch (java.net.SocketException reset) {
                // a reset is also a disconnect
            }
            System.out.printf("SlowStreamReaderTest: %d messages of 10 kB; the reading stream got all; %.0f events dropped for the stuck one, "
                    + "which was disconnected (%d bytes were still in flight to it); streams still open: %.0f%n", MESSAGES, dropped, leftover,
                    Http.metric(node.metrics().scrape(), "waku_rest_streams_open"));
        }
    }
}
