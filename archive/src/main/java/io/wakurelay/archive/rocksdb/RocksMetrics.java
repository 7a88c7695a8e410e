package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.archive.common.ArchiveMeters;
import io.wakurelay.protocol.LatencyBuckets;

import java.time.Duration;

/**
 * The RocksDB archive's own meters beside the {@link ArchiveMeters} every backend serves (docs/metrics.md): the
 * flushes made for acknowledgements, the {@code waku_rocksdb_*} gauges and the small-file merger's counters.
 * Registered on, and removed with, the common meters, so a closed archive leaves no gauge that would read freed
 * native memory.
 */
final class RocksMetrics {
    final Timer flushLatency;
    final Counter smallFileMerges;
    final Counter smallFilesMerged;
    final Counter smallFileMergeFailures;

    RocksMetrics(ArchiveMeters common, ArchiveDatabase database) {
        MeterRegistry registry = common.registry();
        flushLatency = common.keep(Timer.builder("waku.archive.flush.duration")
                .description("flushes the writer made to acknowledge batches (--store-durability flush), and their time")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofSeconds(10)))
                .register(registry));
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
        smallFileMerges = common.counter("waku.rocksdb.small.file.merges", "merges of neighbouring small SST files into one (SmallFileMerger)");
        smallFilesMerged = common.counter("waku.rocksdb.small.files.merged", "small SST files those merges replaced");
        smallFileMergeFailures = common.counter("waku.rocksdb.small.file.merge.failures",
                "merges of small SST files RocksDB refused (tried again later)");
    }
}
