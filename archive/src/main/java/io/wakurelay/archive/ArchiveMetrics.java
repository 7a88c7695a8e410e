package io.wakurelay.archive;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.LatencyBuckets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The archive's meters, named as docs/metrics.md ("Archive") promises. Removed from the registry on close, so a
 * closed archive leaves no gauge that would read freed native memory.
 */
final class ArchiveMetrics implements AutoCloseable {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    final Counter inserts;
    final Counter duplicates;
    final Counter ephemeralSkipped;
    final Counter writes;
    final DistributionSummary batchMessages;
    final Timer writeLatency;
    final Timer flushLatency;
    final Counter writeErrors;
    final Counter retentionRuns;
    final Counter retentionErrors;
    final Counter smallFileMerges;
    final Counter smallFilesMerged;
    final Counter smallFileMergeFailures;
    private final Map<StoreQuery.Kind, Timer> queryLatency = new EnumMap<>(StoreQuery.Kind.class);
    private final Map<String, Counter> retentionDeleted = new HashMap<>();
    final ShardCounts shards;

    ArchiveMetrics(MeterRegistry registry, ArchiveDatabase database, ArchiveCounters counters, Supplier<Number> pending,
                   Supplier<Number> unacknowledged) {
        this.registry = registry;
        this.shards = new ShardCounts(registry);
        try {
            register(database, counters, pending, unacknowledged);
        } catch (RuntimeException e) {
            // e.g. a meter of the same name and another type: leave the registry as it was
            close();
            throw e;
        }
        inserts = find("waku.archive.inserts", Counter.class);
        duplicates = find("waku.archive.duplicates", Counter.class);
        ephemeralSkipped = find("waku.archive.ephemeral.skipped", Counter.class);
        writes = find("waku.archive.writes", Counter.class);
        retentionRuns = find("waku.archive.retention.runs", Counter.class);
        batchMessages = find("waku.archive.batch.messages", DistributionSummary.class);
        writeLatency = find("waku.archive.insert.duration", Timer.class);
        flushLatency = find("waku.archive.flush.duration", Timer.class);
        writeErrors = registry.get("waku.archive.errors").tag("type", "insert_failure").counter();
        retentionErrors = registry.get("waku.archive.errors").tag("type", "retpolicy_failure").counter();
        smallFileMerges = find("waku.rocksdb.small.file.merges", Counter.class);
        smallFilesMerged = find("waku.rocksdb.small.files.merged", Counter.class);
        smallFileMergeFailures = find("waku.rocksdb.small.file.merge.failures", Counter.class);
    }

    private void register(ArchiveDatabase database, ArchiveCounters counters, Supplier<Number> pending,
                          Supplier<Number> unacknowledged) {
        keep(Gauge.builder("waku.archive.messages", counters::messages).tag("type", "stored")
                .description("messages stored").register(registry));
        gauge("waku.archive.bytes", "bytes of stored messages (the WakuMessage bytes as received)", counters::bytes);
        gauge("waku.archive.pending", "envelopes taken by the writer and not yet committed", pending);
        gauge("waku.archive.unacknowledged", "envelopes written and not yet acknowledged (with --store-durability flush: "
                + "waiting for the flush that makes them durable)", unacknowledged);
        counter("waku.archive.inserts", "messages written");
        counter("waku.archive.duplicates", "messages not written because their hash was already stored");
        counter("waku.archive.ephemeral.skipped", "ephemeral messages not archived");
        counter("waku.archive.writes", "batches committed (one RocksDB WriteBatch each)");
        // nwaku's waku_archive_errors{type}, with its label values for the two failures an archive here can have
        for (String type : List.of("insert_failure", "retpolicy_failure")) {
            keep(Counter.builder("waku.archive.errors").tag("type", type)
                    .description("archive failures: batches that failed to commit (retried), retention passes that failed")
                    .register(registry));
        }
        counter("waku.archive.retention.runs", "retention passes");
        keep(DistributionSummary.builder("waku.archive.batch.messages")
                .description("messages per committed batch").register(registry));
        keep(Timer.builder("waku.archive.insert.duration").description("time to commit one batch (its messages are inserted together)")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofNanos(100_000), Duration.ofSeconds(1)))
                .register(registry));
        keep(Timer.builder("waku.archive.flush.duration")
                .description("flushes the writer made to acknowledge batches (--store-durability flush), and their time")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofSeconds(10)))
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

        gauge("waku.rocksdb.live.sst.bytes", "RocksDB rocksdb.live-sst-files-size",
                () -> database.aggregatedProperty("rocksdb.live-sst-files-size"));
        gauge("waku.rocksdb.sst.files", "SST files of every column family and level",
                () -> database.sstFileCount());
        counter("waku.rocksdb.small.file.merges", "merges of neighbouring small SST files into one (SmallFileMerger)");
        counter("waku.rocksdb.small.files.merged", "small SST files those merges replaced");
        counter("waku.rocksdb.small.file.merge.failures", "merges of small SST files RocksDB refused (tried again later)");
        gauge("waku.rocksdb.memtable.bytes", "RocksDB rocksdb.cur-size-all-mem-tables",
                () -> database.aggregatedProperty("rocksdb.cur-size-all-mem-tables"));
        gauge("waku.rocksdb.block.cache.bytes", "RocksDB rocksdb.block-cache-usage", database::blockCacheUsage);
        keep(FunctionCounter.builder("waku.rocksdb.stall", database, ArchiveDatabase::stallSeconds).baseUnit("seconds")
                .description("time writes were stalled by RocksDB waiting for flushes or compactions").register(registry));
        for (ArchiveDatabase.Family family : ArchiveDatabase.Family.values()) {
            meters.add(Gauge.builder("waku.rocksdb.estimated.keys",
                            () -> database.familyProperty(family, "rocksdb.estimate-num-keys"))
                    .description("RocksDB rocksdb.estimate-num-keys per column family")
                    .tag("cf", family.cfName).register(registry));
        }
    }

    private <M extends Meter> M find(String name, Class<M> type) {
        for (Meter meter : meters) {
            if (meter.getId().getName().equals(name) && type.isInstance(meter)) {
                return type.cast(meter);
            }
        }
        throw new IllegalStateException(name + " was not registered");
    }

    Timer queryLatency(StoreQuery.Kind kind) {
        return queryLatency.get(kind);
    }

    /** @param policy {@code time}, {@code capacity} or {@code size} */
    Counter retentionDeleted(String policy) {
        return retentionDeleted.get(policy);
    }

    private void gauge(String name, String description, Supplier<Number> value) {
        meters.add(Gauge.builder(name, value).description(description).register(registry));
    }

    private Counter counter(String name, String description) {
        return keep(Counter.builder(name).description(description).register(registry));
    }

    private <M extends Meter> M keep(M meter) {
        meters.add(meter);
        return meter;
    }

    @Override
    public void close() {
        for (Meter meter : meters) {
            registry.remove(meter);
        }
        shards.close();
    }
}
