package io.wakurelay.archive.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreDbUrl;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import reactor.core.publisher.Flux;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Insert and Store query latency of one archive at scale, as nwaku's docs/benchmarks/postgres-adoption.md shows them
 * for nwaku: {@code N} messages (256-byte payloads, 10 content topics on one pubsub topic, spread over the 48 hours of
 * the default retention, so that PostgreSQL has its 48 hourly partitions) written in batches of 64, each batch timed;
 * then, one query at a time, the query shapes nwaku's driver serves (its prepared statement's: pubsub topic, one
 * content topic, a time range, forward or backward; the next page by cursor; by hashes; by pubsub topic alone; the
 * first without data), each timed from opening the page to closing it with every message read. Prints one CSV row
 * per shape (and one for the inserts) and writes the latencies, for the plots, to {@code <out>.<backend>.tsv}.
 *
 * <pre>java -cp archive/target/archive-benchmarks.jar io.wakurelay.archive.bench.QueryShapesLatency URL MESSAGES QUERIES OUT</pre>
 * URL is {@code rocksdb} (a temporary directory) or {@code postgres://user@host:port/database} (an empty database).
 */
public final class QueryShapesLatency {
    static final String PUBSUB = "/waku/2/rs/0/0";
    static final int CONTENT_TOPICS = 10;
    static final int PAYLOAD = 256;
    static final int BATCH = 64;
    static final long SPAN_NANOS = Duration.ofHours(48).toNanos();

    private QueryShapesLatency() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int messages = Integer.parseInt(args[1]);
        int queries = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        boolean rocks = url.equals("rocksdb");
        Path dir = Files.createTempDirectory("query-shapes");
        ArchiveConfig config = RocksConfig.defaults(dir);
        if (!rocks) {
            StoreDbUrl.Postgres pg = (StoreDbUrl.Postgres) StoreDbUrl.parse(url);
            config = pg.applyTo(PostgresConfig.builder()).statementTimeout(Duration.ofMinutes(5)).build();
        }
        config = config.withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(Duration.ZERO));
        String backend = rocks ? "rocksdb" : "postgres";
        long base = io.wakurelay.protocol.WallClock.nowNanos() - SPAN_NANOS;
        long step = SPAN_NANOS / messages;
        List<MessageHash> sample = new ArrayList<>();
        Map<String, long[]> latencies = new LinkedHashMap<>();
        try (MessageArchive archive = ArchiveBackends.open(config, new SimpleMeterRegistry())) {
            SplittableRandom random = new SplittableRandom(42);
            long[] inserts = new long[(messages + BATCH - 1) / BATCH];
            long started = System.nanoTime();
            for (int b = 0; b < inserts.length; b++) {
                List<Envelope> batch = new ArrayList<>(BATCH);
                for (int i = b * BATCH; i < Math.min(messages, (b + 1) * BATCH); i++) {
                    Envelope e = BenchEnvelopes.envelope(random, content(i), PAYLOAD, base + i * step);
                    if (i % 997 == 0) {
                        sample.add(e.hash());
                    }
                    batch.add(e);
                }
                long t0 = System.nanoTime();
                archive.write(Flux.fromIterable(batch)).blockLast(Duration.ofMinutes(5));
                inserts[b] = System.nanoTime() - t0;
                if (b % 1000 == 0) {
                    System.err.printf("%s: %d of %d written, %.0f msg/s%n", backend, b * BATCH, messages,
                            b * BATCH / ((System.nanoTime() - started) / 1e9));
                }
            }
            double fillSeconds = (System.nanoTime() - started) / 1e9;
            System.err.printf("%s: %d messages in %.0f s (%.0f msg/s)%n", backend, messages, fillSeconds, messages / fillSeconds);
            latencies.put("insert a batch of 64", inserts);

            Map<String, Function<SplittableRandom, StoreQuery>> shapes = new LinkedHashMap<>();
            long hour = Duration.ofHours(1).toNanos();
            shapes.put("topic + 1 h range, forward", r -> topicRange(r, base, hour).ascending(true).build());
            shapes.put("topic + 1 h range, backward", r -> topicRange(r, base, hour).ascending(false).build());
            shapes.put("topic + 1 h range, next page by cursor", r -> {
                StoreQuery first = topicRange(r, base, hour).build();
                MessageHash cursor = archive.query(first).paginationCursor();
                return cursor == null ? first : first.withCursor(cursor);
            });
            shapes.put("topic + 1 h range, without data", r -> topicRange(r, base, hour).includeData(false).build());
            shapes.put("pubsub topic only, from a time", r -> StoreQuery.builder().pubsubTopic(PUBSUB)
                    .startTime(base + r.nextLong(SPAN_NANOS)).pageSize(20).includeData(true).build());
            shapes.put("20 hashes", r -> {
                List<MessageHash> hashes = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    hashes.add(sample.get(r.nextInt(sample.size())));
                }
                return StoreQuery.builder().hashes(hashes).pageSize(20).includeData(true).build();
            });
            for (Map.Entry<String, Function<SplittableRandom, StoreQuery>> shape : shapes.entrySet()) {
                SplittableRandom r = new SplittableRandom(7);
                for (int i = 0; i < Math.min(200, queries); i++) {
                    time(archive, shape.getValue().apply(r)); // warm-up
                }
                long[] times = new long[queries];
                for (int i = 0; i < queries; i++) {
                    times[i] = time(archive, shape.getValue().apply(r));
                }
                latencies.put(shape.getKey(), times);
            }
        }
        System.out.println("backend,shape,count,p50_us,p99_us,mean_us");
        StringBuilder tsv = new StringBuilder("shape\tnanos\n");
        for (Map.Entry<String, long[]> e : latencies.entrySet()) {
            long[] sorted = e.getValue().clone();
            Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "%s,%s,%d,%.0f,%.0f,%.0f%n", backend, e.getKey(), sorted.length,
                    sorted[sorted.length / 2] / 1e3, sorted[(int) (sorted.length * 0.99)] / 1e3,
                    Arrays.stream(sorted).average().orElse(0) / 1e3);
            for (long v : sorted) {
                tsv.append(e.getKey()).append('\t').append(v).append('\n');
            }
        }
        Files.writeString(Path.of(out + "." + backend + ".tsv"), tsv, StandardCharsets.UTF_8);
        if (rocks) {
            BenchEnvelopes.deleteRecursively(dir);
        }
    }

    private static String content(int i) {
        return "/app/1/topic-" + (i % CONTENT_TOPICS) + "/proto";
    }

    private static StoreQuery.Builder topicRange(SplittableRandom r, long base, long hour) {
        long start = base + r.nextLong(SPAN_NANOS - hour);
        return StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics(content(r.nextInt(CONTENT_TOPICS)))
                .startTime(start).endTime(start + hour).pageSize(20).includeData(true);
    }

    /** Opens the page, reads every message, closes it. */
    private static long time(MessageArchive archive, StoreQuery query) {
        long t0 = System.nanoTime();
        try (StorePage page = archive.openPage(query, 4L << 20)) {
            while (page.hasNext()) {
                page.next();
            }
        }
        return System.nanoTime() - t0;
    }
}
