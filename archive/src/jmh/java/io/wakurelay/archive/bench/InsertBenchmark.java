package io.wakurelay.archive.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.PayloadMix;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
 * Sustained inserts: 20,000 messages of the default payload mix (seed 42, mean payload 65,000 bytes, about
 * 1.3 GB), written through {@link MessageArchive#write} into a fresh archive with the default configuration,
 * one operation per message. The envelopes are encoded before the measurement (in pooled direct buffers, as
 * the relay hands them over) so that the score is the archive's: batching, dedup probe, WriteBatch, WAL,
 * memtables, and the flushes to blob files that 1.3 GB forces while it runs.
 *
 * <p>Score: microseconds per message; msg/s = 1e6 / score; MB/s = msg/s x mean message bytes (printed).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:MaxDirectMemorySize=3g"})
public class InsertBenchmark {
    static final int MESSAGES = 20_000;

    @Param({PayloadMix.DEFAULT_SPEC})
    public String mix;

    /** wal, wal-sync or flush ({@link io.wakurelay.archive.Durability}) */
    @Param({"wal"})
    public String durability;

    private Envelope[] envelopes;
    private long messageBytes;
    private Path dir;
    private MessageArchive archive;
    private long started;

    @Setup(Level.Trial)
    public void encode() {
        int[] sizes = PayloadMix.parse(mix).sizes(PayloadMix.DEFAULT_SEED, MESSAGES);
        SplittableRandom random = new SplittableRandom(PayloadMix.DEFAULT_SEED);
        envelopes = new Envelope[MESSAGES];
        for (int i = 0; i < MESSAGES; i++) {
            envelopes[i] = BenchEnvelopes.envelope(random, "/waku/2/default-content/proto", sizes[i], BenchEnvelopes.BASE_TIME + i);
            messageBytes += envelopes[i].messageSize();
        }
    }

    @Setup(Level.Iteration)
    public void openArchive() throws Exception {
        dir = Files.createTempDirectory("archive-insert-bench");
        archive = ArchiveBackends.open(RocksConfig.defaults(dir).toBuilder().durability(io.wakurelay.archive.Durability.parse(durability)).build()
                        .withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(java.time.Duration.ZERO)),
                new SimpleMeterRegistry());
        for (Envelope e : envelopes) {
            // the archive releases one reference per envelope; the benchmark keeps its own for the next iteration
            e.retain();
        }
        started = System.nanoTime();
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long insert() {
        CommittedBatch last = archive.write(Flux.fromArray(envelopes)).blockLast();
        return last == null ? 0 : last.committedAtNanos();
    }

    @TearDown(Level.Iteration)
    public void closeArchive() throws Exception {
        double seconds = (System.nanoTime() - started) / 1e9;
        long stored = archive.messageCount();
        archive.close();
        BenchEnvelopes.deleteRecursively(dir);
        System.out.printf("%n  stored %,d messages, %,d bytes (mean %,d) in %.2f s: %,.0f msg/s, %.1f MB/s%n",
                stored, messageBytes, messageBytes / MESSAGES, seconds, MESSAGES / seconds, messageBytes / seconds / 1e6);
    }

    @TearDown(Level.Trial)
    public void release() {
        for (Envelope e : envelopes) {
            e.release();
        }
    }
}
