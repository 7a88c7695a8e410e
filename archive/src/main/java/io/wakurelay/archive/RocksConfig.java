package io.wakurelay.archive;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The embedded RocksDB archive, the default backend: where it is, what an acknowledgement promises, its memory and
 * its disk, beside the {@link CoreConfig} every backend shares. Validated at construction: a bad value is an
 * {@link IllegalArgumentException} that names the field and the accepted range.
 *
 * @param core             what every backend shares
 * @param dataDir          the RocksDB directory (created when missing)
 * @param durability       what an acknowledgement promises, see {@link Durability}
 * @param flushInterval    with {@link Durability#FLUSH}: the longest a written batch waits before a flush that will
 *                         acknowledge it is asked for (0: a flush after every batch)
 * @param blockCacheBytes  the LRU block cache shared by every column family; memtables are charged to it too
 * @param writeBufferBytes memtable budget for all column families together: above it the largest memtable is flushed;
 *                         while flushes lag, writes stall at two memtables per family (at most about 2.25 times this)
 * @param writeRateBytes   bytes per second RocksDB may write in flushes and compactions (its rate limiter), so that the
 *                         archive leaves the disk to others; 0: no limit. The write-ahead log is not limited: when
 *                         flushes fall behind, writes stall and the archive's backpressure slows its peers
 * @param directIo         whether RocksDB's flushes and compactions write with direct I/O where the data directory's
 *                         file system takes it (docs/adr/0077); false: through the page cache
 */
@RecordBuilder
public record RocksConfig(CoreConfig core, Path dataDir, Durability durability, Duration flushInterval,
                          long blockCacheBytes, long writeBufferBytes, long writeRateBytes, boolean directIo)
        implements ArchiveConfig {
    private static final Duration MAX_FLUSH_INTERVAL_LIMIT = Duration.ofSeconds(60);
    private static final long MIN_MEMORY_BYTES = 1L << 20;
    private static final long MIN_WRITE_RATE_BYTES = 1L << 20;

    /**
     * Every default (flags, docs and tests read them here): the shared {@link CoreConfig#DEFAULTS}, in
     * {@code data/store}, acknowledged once in the write-ahead log (a flush-acknowledged archive asks for a flush
     * within 200 ms), a 128 MiB block cache with 64 MiB of memtables charged to it, no limit on the rate it writes to
     * disk, flushes and compactions with direct I/O where the disk takes it.
     */
    public static final RocksConfig DEFAULTS = new RocksConfig(CoreConfig.DEFAULTS, Path.of("data", "store"),
            Durability.WAL, Duration.ofMillis(200), 128L << 20, 64L << 20, 0, true);

    public RocksConfig {
        Objects.requireNonNull(core, "core");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(flushInterval, "flushInterval");
        if (flushInterval.isNegative() || flushInterval.compareTo(MAX_FLUSH_INTERVAL_LIMIT) > 0) {
            throw new IllegalArgumentException("flushInterval must be 0.." + MAX_FLUSH_INTERVAL_LIMIT.toSeconds() + " s, was " + flushInterval);
        }
        if (writeBufferBytes < MIN_MEMORY_BYTES) {
            throw new IllegalArgumentException("writeBufferBytes must be at least 1 MiB, was " + writeBufferBytes);
        }
        // memtables are charged to the block cache: a cache no larger than them would hold no data blocks
        if (blockCacheBytes < 2 * writeBufferBytes) {
            throw new IllegalArgumentException("blockCacheBytes must be at least twice writeBufferBytes (" + writeBufferBytes
                    + "), because memtables are charged to the block cache; was " + blockCacheBytes);
        }
        // below 1 MiB/s a single flush of the default memtables would take a minute and stall every write meanwhile
        if (writeRateBytes != 0 && writeRateBytes < MIN_WRITE_RATE_BYTES) {
            throw new IllegalArgumentException("writeRateBytes must be 0 (no limit) or at least 1 MiB per second, was " + writeRateBytes);
        }
    }

    @Override
    public String backend() {
        return "rocksdb";
    }

    @Override
    public RocksConfig withCore(UnaryOperator<CoreConfigBuilder> change) {
        return toBuilder().core(change.apply(core.toBuilder()).build()).build();
    }

    /** {@link #DEFAULTS} in {@code dataDir}. */
    public static RocksConfig defaults(Path dataDir) {
        return builder().dataDir(dataDir).build();
    }

    public static RocksConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }

    public RocksConfigBuilder toBuilder() {
        return RocksConfigBuilder.builder(this);
    }
}
