package io.wakurelay.node;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fifty clients asking, over and over for {@code storeload.seconds} (default 30), for the largest Store page there is
 * (100 messages of 140 kB, with data) from a node process with a 128 MiB heap that exits on OutOfMemoryError. Before
 * the query limit, the page budget and the streamed answer, six such clients took the node's heap (a page was about
 * 20 MB of JSON, built whole and copied several times) and requests went unanswered. Now the node stays up, every
 * request gets a whole answer, 200 or 429 (all query slots taken), and the heap stays within its limit.
 */
@Tag("process")
@Tag("slow")
@Tag("process")
@Tag("slow")
class ConcurrentStoreQueriesTest {
    private static final int CLIENTS = 50;
    private static final int MESSAGES = 120;
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("storeload.seconds", 30));
    private static final long MIB = 1 << 20;
    private static final List<String> JVM = List.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError", "-Dio.netty.leakDetection.level=paranoid");

    @TempDir
    Path dir;

    @Test
    void fiftyClientsAskingForTheLargestPagesGetAnAnswerEachWhileTheNodeStaysWithinItsHeap() throws Exception {
        List<String> args = List.of("--data-dir", dir.resolve("data").toString(), "--listen-address", "127.0.0.1", "--tcp-port", "0",
                "--rest-port", "0", "--metrics-server-port", "0");
        try (NodeProcess node = NodeProcess.start(JVM, args, Duration.ofSeconds(60), dir.resolve("node.log"))) {
            Http rest = new Http(node.restAddress());
            Http metrics = new Http(node.metricsAddress());
            LargeMessages.publish(rest, MESSAGES);

            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
            URI uri = URI.create("http://127.0.0.1:" + node.restAddress().getPort() + LargeMessages.query("pageSize=100&includeData=true"));
            Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
            AtomicLong messagesRead = new AtomicLong();
            AtomicLong bytesRead = new AtomicLong();
            List<String> failures = new CopyOnWriteArrayList<>();
            long deadline = System.nanoTime() + RUN.toNanos();
            NodeMemory.Sample peak;
            try (NodeMemory.Peaks peaks = new NodeMemory.Peaks(() -> metrics.get("/metrics").body(), 200)) {
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    Thread t = new Thread(() -> {
                        while (System.nanoTime() - deadline < 0) {
                            try {
                                HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
                                        HttpResponse.BodyHandlers.ofInputStream());
                                statuses.computeIfAbsent(response.statusCode(), s -> new AtomicLong()).incrementAndGet();
                                try (InputStream body = response.body()) {
                                    long[] counts = readWholeAnswer(body);
                                    if (response.statusCode() == 200) {
                                        messagesRead.addAndGet(counts[0]);
                                    }
                                    bytesRead.addAndGet(counts[1]);
                                }
                                if (response.statusCode() == 429) {
                                    Thread.sleep(10); // it says Retry-After: 1; a hostile client would not wait that long
                                }
                            } catch (IOException e) {
                                failures.add(e.toString());
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }, "store-client-" + c);
                    t.start();
                    clients.add(t);
                }
                for (Thread t : clients) {
                    t.join(RUN.toMillis() + 120_000);
                }
                peak = peaks.peak();
            }
            String exposition = metrics.get("/metrics").body();
            System.out.printf("ConcurrentStoreQueriesTest: %d clients for %s: answers by status %s, %d messages (%.0f MB of JSON) read, "
                            + "%d failures; queries refused %.0f; peak %s%n", CLIENTS, RUN, statuses, messagesRead.get(), bytesRead.get() / 1e6,
                    failures.size(), Http.metric(exposition, "waku_store_queries_refused_total"), peak);

            assertThat(node.isAlive()).as("no OutOfMemoryError (the node exits on one)").isTrue();
            assertThat(failures).as("requests without a whole answer").isEmpty();
            assertThat(statuses.keySet()).as("every answer a 200 or a 429").isSubsetOf(200, 429);
            assertThat(statuses.get(200).get()).as("pages answered").isPositive();
            assertThat(peak.heap()).as("heap in use, sampled").isLessThan(128 * MIB);
            assertThat(String.join("\n", node.output())).doesNotContain("OutOfMemoryError", "LEAK", " ERROR ");
            assertThat(rest.get("/health").status()).isEqualTo(200);
        }
    }

    /** Reads a whole JSON answer as it streams in; returns {messages, bytes}; an answer cut short fails to parse. */
    private static long[] readWholeAnswer(InputStream body) throws IOException {
        CountingStream in = new CountingStream(body);
        long messages = 0;
        try (JsonParser parser = Http.JSON.getFactory().createParser(in)) {
            int depth = 0;
            for (JsonToken token; (token = parser.nextToken()) != null; ) {
                if (token == JsonToken.FIELD_NAME && "messageHash".equals(parser.currentName())) {
                    messages++;
                }
                depth += token.isStructStart() ? 1 : token.isStructEnd() ? -1 : 0;
            }
            if (depth != 0) {
                throw new IOException("the answer ended inside its JSON");
            }
        }
        return new long[]{messages, in.count};
    }

    private static final class CountingStream extends java.io.FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            count += Math.max(n, 0);
            return n;
        }
    }
}
