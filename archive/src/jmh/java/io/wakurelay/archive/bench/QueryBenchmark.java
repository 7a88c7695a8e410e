package io.wakurelay.archive.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.protocol.Envelope;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Store queries over 100,000 stored messages (10 content topics on one pubsub topic, timestamps 1 ms apart,
 * 100-byte payloads): one page of 20 for a random content topic and a random 5-second time range (about 500
 * matches, so the page is full and has a cursor). The archive is reopened after the inserts so the data is
 * read from SST files, as on a node that has been running. SampleTime mode reports p50 and p99.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class QueryBenchmark {
    static final int MESSAGES = 100_000;
    static final int CONTENT_TOPICS = 10;
    static final long STEP_NANOS = 1_000_000;
    static final long WINDOW_NANOS = 5_000_000_000L;

    @Param({"100"})
    public int payloadSize;

    @Param({"false", "true"})
    public boolean includeData;

    private Path dir;
    private MessageArchive archive;

    @Setup(Level.Trial)
    public void fill() throws Exception {
        dir = Files.createTempDirectory("archive-query-bench");
        ArchiveConfig config = RocksConfig.defaults(dir).withCore(c -> c.retention(new RetentionPolicy.None())
                .timestampWindow(java.time.Duration.ZERO));
        SplittableRandom random = new SplittableRandom(42);
        try (MessageArchive writing = ArchiveBackends.open(config, new SimpleMeterRegistry())) {
            Flux<Envelope> envelopes = Flux.range(0, MESSAGES).map(i ->
                    BenchEnvelopes.envelope(random, contentTopic(i % CONTENT_TOPICS), payloadSize, BenchEnvelopes.BASE_TIME + i * STEP_NANOS));
            writing.write(envelopes).blockLast();
        }
        archive = ArchiveBackends.open(config, new SimpleMeterRegistry());
        if (archive.messageCount() != MESSAGES) {
            throw new IllegalStateException("expected " + MESSAGES + " messages, found " + archive.messageCount());
        }
    }

    static String contentTopic(int k) {
        return "/bench/1/topic-" + k + "/proto";
    }

    @State(Scope.Thread)
    public static class Picks {
        final SplittableRandom random = new SplittableRandom(7);
    }

    @Benchmark
    public StoreResponse pageByContentTopicAndTimeRange(Picks picks) {
        long span = MESSAGES * STEP_NANOS - WINDOW_NANOS;
        long start = BenchEnvelopes.BASE_TIME + picks.random.nextLong(span);
        StoreQuery query = StoreQuery.builder()
                .pubsubTopic(BenchEnvelopes.PUBSUB_TOPIC)
                .contentTopics(contentTopic(picks.random.nextInt(CONTENT_TOPICS)))
                .startTime(start).endTime(start + WINDOW_NANOS)
                .pageSize(20).includeData(includeData)
                .build();
        StoreResponse page = archive.query(query);
        if (page.messages().size() != 20 || page.paginationCursor() == null) {
            throw new IllegalStateException("expected a full page with a cursor, got " + page.messages().size());
        }
        return page;
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        archive.close();
        BenchEnvelopes.deleteRecursively(dir);
    }
}
