package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
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
@Tag("slow")
class SlowStreamReaderTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final int MESSAGES = 1000;

    @TempDir
    Path dir;
    int busy;

    /**
     * One stuck reader of large messages holds at most its stream's byte budget (--rest-stream-buffer-size, 1 MiB by
     * default) and starts losing events as soon as that is full; before, its 256-event buffer and the 128 events the
     * HTTP layer took ahead held about 384 events (75 MB of 150 kB messages) without a single drop.
     */
    @Test
    void aStuckReaderOfLargeMessagesHoldsNoMoreThanItsStreamsByteBudget() throws Exception {
        int messages = 100;
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).build());
             Socket stuck = stuckReader(node)) {
            Http rest = new Http(node.restAddress());
            Eventually.until("the stream is open", Duration.ofSeconds(10), () -> Http.metric(node.metrics().scrape(), "waku_rest_streams_open") == 1);
            String payload = Base64.getEncoder().encodeToString(new byte[100_000]);
            double maxBuffered = 0;
            StringBuilder history = new StringBuilder("messages:buffered bytes/dropped events ");
            for (int i = 0; i < messages; i++) {
                Http.Reply reply = publish(rest, "{\"payload\":\"" + payload
                        + "\",\"contentTopic\":\"/app/1/sse/proto\",\"meta\":\"" + Base64.getEncoder().encodeToString(("big" + i).getBytes()) + "\"}");
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                if (i % 5 != 4) {
                    continue; // a scrape costs about as much as a publish
                }
                String scrape = node.metrics().scrape();
                maxBuffered = Math.max(maxBuffered, Http.metric(scrape, "waku_rest_streams_buffered_bytes"));
                history.append(i + 1).append(':').append((long) Http.metric(scrape, "waku_rest_streams_buffered_bytes")).append('/')
                        .append((long) Http.metric(scrape, "waku_rest_streams_dropped_total")).append(' ');
            }
            double dropped = Http.metric(node.metrics().scrape(), "waku_rest_streams_dropped_total");
            System.out.printf("SlowStreamReaderTest: %d messages of 100 kB to a reader that never reads: at most %.0f bytes buffered for it, "
                    + "%.0f events dropped; %d publishes retried after a 503%n", messages, maxBuffered, dropped, busy);
            System.out.println("SlowStreamReaderTest: " + history);
            assertThat(maxBuffered).as("bytes held for the stuck reader").isPositive().isLessThanOrEqualTo(1 << 20);
            // the kernel's socket buffers hold about 2.8 MB (20 events) besides: drops start after about 30 events (before: about 400)
            assertThat(dropped).as("events dropped once its byte budget and the socket buffers were full; " + history).isGreaterThan(30);
            stuck.close(); // unread data: the node's pending write fails and the stream ends
            Eventually.until("its slot and its bytes are given back", Duration.ofSeconds(10), () -> {
                String now = node.metrics().scrape();
                return Http.metric(now, "waku_rest_streams_open") == 0 && Http.metric(now, "waku_rest_streams_buffered_bytes") == 0;
            });
        }
    }

    /**
     * Publishes, retrying while the node answers 503 (its archive behind: on a loaded machine the writer thread
     * gets little CPU) for up to 30 s; a reader that held up the message path would make that last and fail.
     */
    private Http.Reply publish(Http rest, String body) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body);
            if (reply.status() != 503 || System.nanoTime() - deadline > 0) {
                return reply;
            }
            busy++;
            Thread.sleep(20);
        }
    }

    /** A reader that opens the stream with a 4 KiB receive buffer, reads the status line, and then nothing more. */
    private static Socket stuckReader(WakuNode node) throws java.io.IOException {
        Socket stuck = new Socket();
        stuck.setReceiveBufferSize(4096);
        stuck.connect(node.restAddress(), 5_000);
        stuck.getOutputStream().write(("GET /relay/v1/stream/" + Http.topic(TOPIC) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        stuck.getOutputStream().flush();
        byte[] head = new byte[64];
        assertThat(new String(head, 0, stuck.getInputStream().read(head), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
        return stuck;
    }

    @Test
    void aStreamReaderThatNeverReadsIsDisconnectedWithoutSlowingTheNodeOrOtherReaders() throws Exception {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).metrics(TestNodes.metrics()).build());
             Socket stuck = stuckReader(node)) {
            Http rest = new Http(node.restAddress());
            InputStream in = stuck.getInputStream();
            // ... and from here on it reads nothing more
            BlockingQueue<JsonNode> events = rest.stream("/relay/v1/stream/" + Http.topic(TOPIC));
            Eventually.until("both streams are open", Duration.ofSeconds(10), () -> node.metrics().scrape().contains("waku_rest_streams_open 2.0"));

            String payload = Base64.getEncoder().encodeToString(new byte[10_000]);
            List<String> published = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                long timestamp = WakuNode.nowNanos();
                Http.Reply reply = publish(rest,
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
            Eventually.until("every message is archived", Duration.ofSeconds(30), () -> ArchivedMessages.stored(rest, published) == MESSAGES);
            String scrape = node.metrics().scrape();
            assertThat(Http.metric(scrape, "waku_rest_streams_disconnected_total")).as("stuck readers disconnected").isEqualTo(1.0);
            Eventually.until("the stuck stream's slot is freed", Duration.ofSeconds(10),
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
                    + "which was disconnected (%d bytes were still in flight to it); streams still open: %.0f; %d publishes retried after a 503%n", MESSAGES, dropped, leftover,
                    Http.metric(node.metrics().scrape(), "waku_rest_streams_open"), busy);
        }
    }
}
