package io.wakurelay.loadgen;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Store queries against a running node's REST API: {@code queries} pages of {@code pageSize} messages with data, by
 * {@code concurrency} clients, each following the cursor and starting over at the end. A query's latency is from
 * sending it to the last byte of its answer. The node's memory comes from its /metrics: heap bytes allocated per
 * query (its GC allocation counter plus the growth of the young generation since, so allocations not yet collected
 * count; less what the node allocates idle over as long, measured just before while sampled the same way, which is
 * mostly its answers to these samplings), the peak heap in use (sampled every 50 ms), and its collections.
 * {@code --fill} first publishes messages over REST for the queries to find.
 */
final class QueryScenario {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WARMUP_QUERIES = 20;
    private static final Duration SAMPLING = Duration.ofMillis(50);
    private static final Duration IDLE = Duration.ofSeconds(3);

    record Options(String restAt, String metricsAt, int pageSize, int queries, int concurrency, int fill, int payloadBytes,
                   String pubsubTopic, String contentTopic) {
    }

    private QueryScenario() {
    }

    static ResultRow run(Options o, PrintStream err) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://" + o.restAt + "/store/v3/messages?pubsubTopic=" + enc(o.pubsubTopic) + "&contentTopics=" + enc(o.contentTopic)
                + "&includeData=true&pageSize=" + o.pageSize;
        if (o.fill > 0) {
            fill(o, err);
        }
        RemoteMetrics metrics = new RemoteMetrics(o.metricsAt);
        Pager warm = new Pager(client, base);
        for (int i = 0; i < WARMUP_QUERIES; i++) {
            warm.next();
        }
        double idlePerNano;
        try (RemoteMetrics.Peaks idle = new RemoteMetrics.Peaks(metrics, SAMPLING)) {
            String idleStart = metrics.scrapeBetweenCollections();
            long t0 = System.nanoTime();
            InProcessNodes.sleep(IDLE.toMillis());
            idlePerNano = RemoteMetrics.allocated(idleStart, metrics.scrapeBetweenCollections()) / (System.nanoTime() - t0);
        }
        String before = metrics.scrapeBetweenCollections();
        Latencies latencies = new Latencies(o.queries);
        AtomicLong left = new AtomicLong(o.queries);
        AtomicLong bytes = new AtomicLong();
        AtomicLong messages = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        String after;
        RemoteMetrics.Peaks peaks = new RemoteMetrics.Peaks(metrics, SAMPLING);
        try (peaks; Progress p = new Progress("query", o.queries, () -> o.queries - Math.max(0, left.get()), err)) {
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < o.concurrency; c++) {
                Thread t = new Thread(() -> {
                    Pager pager = new Pager(client, base);
                    while (left.getAndDecrement() > 0) {
                        try {
                            Page page = pager.next();
                            latencies.add(page.nanos);
                            bytes.addAndGet(page.bytes);
                            messages.addAndGet(page.messages);
                            if (isBusy(page.status)) {
                                refused.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            failures.add(e);
                        }
                    }
                }, "query-client-" + c);
                t.start();
                clients.add(t);
            }
            for (Thread t : clients) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        long end = System.nanoTime();
        after = metrics.scrapeBetweenCollections();
        if (!failures.isEmpty()) {
            err.println("query: " + failures.size() + " queries failed, the first: " + failures.get(0));
        }
        double mb = 1024.0 * 1024.0;
        double allocated = RemoteMetrics.allocated(before, after) - idlePerNano * (end - start);
        long gcs = Math.round(RemoteMetrics.collections(after) - RemoteMetrics.collections(before));
        long[] sorted = latencies.sorted();
        double seconds = (end - start) / 1e9;
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("rest_at", o.restAt);
        extras.put("page_size", o.pageSize);
        extras.put("concurrency", o.concurrency);
        extras.put("messages_per_query", Math.round(10.0 * messages.get() / Math.max(1, o.queries - refused.get())) / 10.0);
        extras.put("bytes_per_query", bytes.get() / Math.max(1, o.queries));
        extras.put("refused_busy", refused.get());
        extras.put("failed", failures.size());
        extras.put("idle_alloc_bytes_per_s", Math.round(idlePerNano * 1e9));
        return new ResultRow("query", o.queries, (end - start) / 1e6, o.queries / seconds, Latencies.percentile(sorted, 50),
                Latencies.percentile(sorted, 99), 0, 0, 0, peaks.heapMb(), peaks.rssMb(), allocated / o.queries, gcs,
                bytes.get() / 1e6 / seconds, Latencies.average(sorted), peaks.directMb(), failures.size(), extras, sorted, Timeline.Series.EMPTY);
    }

    /**
     * A node too busy to answer now: 429 (every store query slot taken, as nwaku answers its store rate limit), or
     * 503 (a node of this project before it answered 429). The query is counted as refused, not failed.
     */
    private static boolean isBusy(int status) {
        return status == 429 || status == 503;
    }

    private record Page(int status, long nanos, long bytes, long messages) {
    }

    /** One client's walk through the pages: it follows each cursor and starts over after the last page. */
    private static final class Pager {
        private final HttpClient client;
        private final String base;
        private String cursor;

        Pager(HttpClient client, String base) {
            this.client = client;
            this.base = base;
        }

        Page next() {
            URI uri = URI.create(base + (cursor == null ? "" : "&cursor=" + cursor));
            long t0 = System.nanoTime();
            try {
                HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(120)).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                long[] read = new long[2];
                String next = null;
                try (InputStream body = response.body(); JsonParser parser = JSON.getFactory().createParser(new Counting(body, read))) {
                    for (JsonToken token; (token = parser.nextToken()) != null; ) {
                        if (token == JsonToken.FIELD_NAME && "messageHash".equals(parser.currentName())) {
                            read[1]++;
                        } else if (token == JsonToken.FIELD_NAME && "paginationCursor".equals(parser.currentName())) {
                            next = parser.nextTextValue();
                        }
                    }
                }
                long nanos = System.nanoTime() - t0;
                if (response.statusCode() == 200) {
                    cursor = next;
                } else if (!isBusy(response.statusCode())) {
                    throw new IllegalStateException("store query answered " + response.statusCode());
                }
                return new Page(response.statusCode(), nanos, read[0], read[1]);
            } catch (IOException e) {
                throw new IllegalStateException("store query " + uri + " failed: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Counts the bytes read into {@code counts[0]}. */
    private static final class Counting extends java.io.FilterInputStream {
        private final long[] counts;

        Counting(InputStream in, long[] counts) {
            super(in);
            this.counts = counts;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            counts[0] += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            counts[0] += Math.max(0, n);
            return n;
        }
    }

    /**
     * Publishes {@code fill} messages of {@code payloadBytes} random bytes over REST (the body written by Jackson, as
     * {@link RestPublisher} writes every body) and waits until they are stored.
     */
    private static void fill(Options o, PrintStream err) {
        Random random = new Random(42);
        byte[] payload = new byte[o.payloadBytes];
        RestPublisher publisher = new RestPublisher(o.restAt, o.pubsubTopic);
        long last = 0;
        for (int i = 0; i < o.fill; i++) {
            random.nextBytes(payload);
            // the time of each publish (rising): a fill longer than the archive's window (--max-clock-drift, 20 s)
            // would otherwise give its last messages timestamps the archive skips as too old
            last = Math.max(System.currentTimeMillis() * 1_000_000L, last + 1);
            publisher.publish(WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(o.contentTopic)
                    .setTimestamp(last).build());
        }
        RestStoreClient store = new RestStoreClient(o.restAt, o.pubsubTopic, o.contentTopic);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int stored = 0;
        while ((stored += store.newHashes(0).size()) < o.fill) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + stored + " of " + o.fill + " messages were stored within 60 s");
            }
            InProcessNodes.sleep(100);
        }
        err.printf("query: %d messages of %d bytes published to %s and stored%n", o.fill, o.payloadBytes, o.restAt);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
