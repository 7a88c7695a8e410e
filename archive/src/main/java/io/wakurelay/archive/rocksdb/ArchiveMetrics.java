package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.common.ArchiveMeters;
import io.wakurelay.archive.common.ShardCounts;
import io.wakurelay.protocol.LatencyBuckets;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The RocksDB archive's meters: the {@link ArchiveMeters} every backend serves, and RocksDB's own (the
 * {@code waku_rocksdb_*} gauges and the small-file merger's counters), named as docs/metrics.md promises. Removed from
 * the registry on close, so a closed archive leaves no gauge that would read freed native memory.
 */
final class ArchiveMetrics implements AutoCloseable {
    private final ArchiveMeters common;

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
    final ShardCounts shards;

    ArchiveMetrics(MeterRegistry registry, ArchiveDatabase database, ArchiveCounters counters, Supplier<Number> pending,
                   Supplier<Number> unacknowledged) {
        this.common = new ArchiveMeters(registry, counters::messages, counters::bytes, pending, unacknowledged);
        try {
            flushLatency = common.keep(Timer.builder("waku.archive.flush.duration")
                    .description("flushes the writer made to acknowledge batches (--store-durability flush), and their time")
                    .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofSeconds(10)))
                    .register(registry));
            registerRocksDb(registry, database);
            smallFileMerges = common.counter("waku.rocksdb.small.file.merges", "merges of neighbouring small SST files into one (SmallFileMerger)");
            smallFilesMerged = common.counter("waku.rocksdb.small.files.merged", "small SST files those merges replaced");
            smallFileMergeFailures = common.counter("waku.rocksdb.small.file.merge.failures",
                    "merges of small SST files RocksDB refused (tried again later)");
        } catch (RuntimeException e) {
            common.close();
            throw e;
        }
        inserts = common.inserts();
        duplicates = common.duplicates();
        ephemeralSkipped = common.ephemeralSkipped();
        writes = common.writes();
        batchMessages = common.batchMessages();
        writeLatency = common.writeLatency();
        writeErrors = common.writeErrors();
        retentionRuns = common.retentionRuns();
        retentionErrors = common.retentionErrors();
        shards = common.shards();
    }

    private void registerRocksDb(MeterRegistry registry, ArchiveDatabase database) {
        common.gauge("waku.rocksdb.live.sst.bytes", "RocksDB rocksdb.live-sst-files-size",
                () -> database.aggregatedProperty("rocksdb.live-sst-files-size"));
        common.gauge("waku.rocksdb.sst.files", "SST files of every column family and level", database::sstFileCount);
        common.gauge("waku.rocksdb.memtable.bytes", "RocksDB rocksdb.cur-size-all-mem-tables",
                () -> database.aggregatedProperty("rocksdb.cur-size-all-mem-tables"));
        common.gauge("waku.rocksdb.block.cache.bytes", "RocksDB rocksdb.block-cache-usage", database::blockCacheUsage);
        common.keep(FunctionCounter.builder("waku.rocksdb.stall", database, ArchiveDatabase::stallSeconds).baseUnit("seconds")
                .description("time writes were stalled by RocksDB waiting for flushes or compactions").register(registry));
        for (ArchiveDatabase.Family family : ArchiveDatabase.Family.values()) {
            common.keep(Gauge.builder("waku.rocksdb.estimated.keys",
                            () -> database.familyProperty(family, "rocksdb.estimate-num-keys"))
                    .description("RocksDB rocksdb.estimate-num-keys per column family")
                    .tag("cf", family.cfName).register(registry));
        }
    }

    Timer queryLatency(StoreQuery.Kind kind) {
        return common.queryLatency(kind);
    }

    /** @param policy {@code time}, {@code capacity} or {@code size} */
    Counter retentionDeleted(String policy) {
        return common.retentionDeleted(policy);
    }

    @Override
    public void close() {
        common.close();
    }
}
