package io.wakurelay.archive.common;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.LatencyBuckets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The meters every backend serves under the same names (docs/metrics.md, "Archive"), so that a dashboard does not
 * care which store is behind the node; a backend adds its own beside them ({@link #gauge}, {@link #counter}). Every
 * label value is registered here at start. Removed from the registry on close, so that a closed archive leaves no
 * gauge reading a closed store. Holds the counts of envelopes pending and unacknowledged that its gauges read (the
 * writer moves them).
 */
public final class ArchiveMeters implements AutoCloseable {
    /** nwaku's {@code waku_archive_errors{type}} label values for the two failures an archive here can have. */
    public static final String INSERT_FAILURE = "insert_failure";
    public static final String RETENTION_FAILURE = "retpolicy_failure";
    /**
     * nwaku's label for a message it does not archive because of its timestamp: one before the {@link TimestampWindow},
     * and on PostgreSQL one without any.
     */
    public static final String TOO_OLD = "invalid_message_too_old";
    /** nwaku's label for a message whose timestamp lies too far ahead (after the window; on PostgreSQL past 2262). */
    public static final String FUTURE = "invalid_message_future_timestamp";

    private static final String ERRORS = "archive failures: batches that failed to commit (retried), retention passes that "
            + "failed, messages not archived for their timestamp";

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<StoreQuery.Kind, Timer> queryLatency = new EnumMap<>(StoreQuery.Kind.class);
    private final Map<String, Counter> retentionDeleted = new HashMap<>();
    private final ShardCounts shards;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private Counter inserts;
    private Counter duplicates;
    private Counter ephemeralSkipped;
    private Counter writes;
    private DistributionSummary batchMessages;
    private Timer writeLatency;
    private Counter writeErrors;
    private Counter retentionRuns;
    private Counter retentionErrors;
    private Counter tooOld;
    private Counter futureTimestamp;

    /**
     * @param messages the {@code waku_archive_messages{type="stored"}} gauge's source
     * @param bytes    the {@code waku_archive_bytes} gauge's source
     */
    public ArchiveMeters(MeterRegistry registry, Supplier<Number> messages, Supplier<Number> bytes) {
        this.registry = registry;
        this.shards = new ShardCounts(registry);
        try {
            register(messages, bytes);
        } catch (RuntimeException e) {
            // e.g. a meter of the same name and another type: leave the registry as it was
            close();
            throw e;
        }
    }

    private void register(Supplier<Number> messages, Supplier<Number> bytes) {
        keep(Gauge.builder("waku.archive.messages", messages).tag("type", "stored")
                .description("messages stored").register(registry));
        gauge("waku.archive.bytes", "bytes of stored messages (RocksDB: the WakuMessage bytes as received; PostgreSQL: "
                + "the disk size of the message tables)", bytes);
        gauge("waku.archive.pending", "envelopes taken by the writer and not yet committed", pending::get);
        gauge("waku.archive.unacknowledged", "envelopes written and not yet acknowledged (with --store-durability flush: "
                + "waiting for the flush that makes them durable)", unacknowledged::get);
        inserts = counter("waku.archive.inserts", "messages written");
        duplicates = counter("waku.archive.duplicates", "messages not written because their hash was already stored");
        ephemeralSkipped = counter("waku.archive.ephemeral.skipped", "ephemeral messages not archived");
        writes = counter("waku.archive.writes", "batches committed (one RocksDB WriteBatch or one PostgreSQL transaction each)");
        writeErrors = keep(Counter.builder("waku.archive.errors").tag("type", INSERT_FAILURE)
                .description(ERRORS)
                .register(registry));
        retentionErrors = keep(Counter.builder("waku.archive.errors").tag("type", RETENTION_FAILURE)
                .description(ERRORS)
                .register(registry));
        tooOld = keep(Counter.builder("waku.archive.errors").tag("type", TOO_OLD)
                .description(ERRORS)
                .register(registry));
        futureTimestamp = keep(Counter.builder("waku.archive.errors").tag("type", FUTURE)
                .description(ERRORS)
                .register(registry));
        retentionRuns = counter("waku.archive.retention.runs", "retention passes");
        batchMessages = keep(DistributionSummary.builder("waku.archive.batch.messages")
                .description("messages per committed batch").register(registry));
        writeLatency = keep(Timer.builder("waku.archive.insert.duration")
                .description("time to commit one batch (its messages are inserted together)")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofNanos(100_000), Duration.ofSeconds(1)))
                .register(registry));
        for (StoreQuery.Kind kind : StoreQuery.Kind.values()) {
            queryLatency.put(kind, keep(Timer.builder("waku.archive.query.duration").description("store query latency")
                    .tag("kind", kind.label())
                    .serviceLevelObjectives(LatencyBuckets.between(Duration.ofNanos(10_000), Duration.ofMillis(100)))
                    .register(registry)));
        }
        for (String policy : List.of("time", "capacity", "size")) {
            retentionDeleted.put(policy, keep(Counter.builder("waku.archive.retention.deleted")
                    .description("messages removed by retention").tag("policy", policy).register(registry)));
        }
    }

    /**
     * One batch taken from the stream: {@code stored} messages written, the others skipped as duplicates or
     * ephemeral. Any batch, also one that wrote nothing.
     */
    public void taken(int stored, int duplicates, int ephemeralSkipped) {
        inserts.increment(stored);
        this.duplicates.increment(duplicates);
        this.ephemeralSkipped.increment(ephemeralSkipped);
    }

    /** One batch committed to the store, with {@code stored} messages, its commit begun at {@code startNanos}. */
    public void committed(int stored, long startNanos) {
        writes.increment();
        batchMessages.record(stored);
        writeLatency.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    public Counter writeErrors() {
        return writeErrors;
    }

    /** Messages not archived because their timestamp is before the window (or, on PostgreSQL, absent: as nwaku). */
    public Counter tooOld() {
        return tooOld;
    }

    /** Messages not archived because their timestamp is after the window (or past what a PostgreSQL partition holds). */
    public Counter futureTimestamp() {
        return futureTimestamp;
    }

    public Counter retentionRuns() {
        return retentionRuns;
    }

    public Counter retentionErrors() {
        return retentionErrors;
    }

    public ShardCounts shards() {
        return shards;
    }

    /** What records the time a query of {@code kind} kept the archive busy, in nanoseconds. */
    public LongConsumer queryLatency(StoreQuery.Kind kind) {
        Timer timer = queryLatency.get(kind);
        return nanos -> timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The messages {@code policy} deleted ({@code time}, {@code capacity} or {@code size}). */
    public Counter retentionDeleted(RetentionPolicy policy) {
        return retentionDeleted.get(policy.label());
    }

    /** Envelopes taken from the write stream and not yet committed. */
    public int pending() {
        return pending.get();
    }

    public void pendingChanged(int delta) {
        pending.addAndGet(delta);
    }

    /** Envelopes written and not yet acknowledged changed by {@code delta}. */
    public void unacknowledgedChanged(int delta) {
        unacknowledged.addAndGet(delta);
    }

    /** Registers a backend's gauge, removed with the others on close. */
    public void gauge(String name, String description, Supplier<Number> value) {
        meters.add(Gauge.builder(name, value).description(description).register(registry));
    }

    /** Registers a backend's counter, removed with the others on close. */
    public Counter counter(String name, String description) {
        return keep(Counter.builder(name).description(description).register(registry));
    }

    /** Keeps a meter a backend registered itself, to be removed with the others on close. */
    public <M extends Meter> M keep(M meter) {
        meters.add(meter);
        return meter;
    }

    public MeterRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        for (Meter meter : meters) {
            registry.remove(meter);
        }
        shards.close();
    }
}
