package io.wakurelay.archive;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the archive stores, batches, bounds and expires messages. Validated at construction: a bad value is an
 * {@link IllegalArgumentException} that names the field and the accepted range.
 *
 * @param dataDir           the RocksDB directory (created when missing)
 * @param retention         what to delete, see {@link RetentionPolicy#parse(String)}
 * @param syncWrites        fsync the WAL at every batch commit (power-loss durability, at a latency cost)
 * @param maxBatchMessages  envelopes per RocksDB WriteBatch at most
 * @param maxBatchDelay     how long a batch that is not full waits for more envelopes (0: commit at once)
 * @param maxPendingMessages envelopes requested from upstream and not yet committed, at most
 * @param blockCacheBytes   the LRU block cache shared by every column family; memtables are charged to it too
 * @param writeBufferBytes  memtable budget for all column families together (a WriteBufferManager stalls writes above it)
 * @param retentionInterval time between two retention passes
 */
public record ArchiveConfig(Path dataDir, RetentionPolicy retention, boolean syncWrites, int maxBatchMessages,
                            Duration maxBatchDelay, int maxPendingMessages, long blockCacheBytes,
                            long writeBufferBytes, Duration retentionInterval) {
    public static final int DEFAULT_MAX_BATCH_MESSAGES = 64;
    public static final Duration DEFAULT_MAX_BATCH_DELAY = Duration.ofMillis(5);
    public static final int DEFAULT_MAX_PENDING_MESSAGES = 256;
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 128L << 20;
    public static final long DEFAULT_WRITE_BUFFER_BYTES = 64L << 20;
    public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofMinutes(5);
    /** nwaku's default: two days. */
    public static final String DEFAULT_RETENTION = "time:172800";

    private static final int MAX_BATCH_MESSAGES_LIMIT = 10_000;
    private static final int MAX_PENDING_LIMIT = 1_000_000;
    private static final Duration MAX_BATCH_DELAY_LIMIT = Duration.ofSeconds(10);
    private static final long MIN_MEMORY_BYTES = 1L << 20;

    public ArchiveConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(maxBatchDelay, "maxBatchDelay");
        Objects.requireNonNull(retentionInterval, "retentionInterval");
        if (maxBatchMessages < 1 || maxBatchMessages > MAX_BATCH_MESSAGES_LIMIT) {
            throw new IllegalArgumentException("maxBatchMessages must be 1.." + MAX_BATCH_MESSAGES_LIMIT + ", was " + maxBatchMessages);
        }
        if (maxBatchDelay.isNegative() || maxBatchDelay.compareTo(MAX_BATCH_DELAY_LIMIT) > 0) {
            throw new IllegalArgumentException("maxBatchDelay must be 0.." + MAX_BATCH_DELAY_LIMIT.toSeconds() + " s, was " + maxBatchDelay);
        }
        if (maxPendingMessages < maxBatchMessages || maxPendingMessages > MAX_PENDING_LIMIT) {
            throw new IllegalArgumentException("maxPendingMessages must be maxBatchMessages (" + maxBatchMessages + ").."
                    + MAX_PENDING_LIMIT + ", was " + maxPendingMessages);
        }
        if (writeBufferBytes < MIN_MEMORY_BYTES) {
            throw new IllegalArgumentException("writeBufferBytes must be at least 1 MiB, was " + writeBufferBytes);
        }
        // memtables are charged to the block cache: a cache no larger than them would hold no data blocks
        if (blockCacheBytes < 2 * writeBufferBytes) {
            throw new IllegalArgumentException("blockCacheBytes must be at least twice writeBufferBytes (" + writeBufferBytes
                    + "), because memtables are charged to the block cache; was " + blockCacheBytes);
        }
        if (retentionInterval.isNegative() || retentionInterval.isZero()) {
            throw new IllegalArgumentException("retentionInterval must be positive, was " + retentionInterval);
        }
    }

    /** The defaults documented in docs/archive.md, in {@code dataDir}. */
    public static ArchiveConfig defaults(Path dataDir) {
        return new ArchiveConfig(dataDir, RetentionPolicy.parse(DEFAULT_RETENTION), false, DEFAULT_MAX_BATCH_MESSAGES,
                DEFAULT_MAX_BATCH_DELAY, DEFAULT_MAX_PENDING_MESSAGES, DEFAULT_BLOCK_CACHE_BYTES,
                DEFAULT_WRITE_BUFFER_BYTES, DEFAULT_RETENTION_INTERVAL);
    }

    public ArchiveConfig withRetention(RetentionPolicy policy) {
        return new ArchiveConfig(dataDir, policy, syncWrites, maxBatchMessages, maxBatchDelay, maxPendingMessages,
                blockCacheBytes, writeBufferBytes, retentionInterval);
    }

    public ArchiveConfig withSyncWrites(boolean sync) {
        return new ArchiveConfig(dataDir, retention, sync, maxBatchMessages, maxBatchDelay, maxPendingMessages,
                blockCacheBytes, writeBufferBytes, retentionInterval);
    }

    public ArchiveConfig withBatching(int maxMessages, Duration maxDelay, int maxPending) {
        return new ArchiveConfig(dataDir, retention, syncWrites, maxMessages, maxDelay, maxPending,
                blockCacheBytes, writeBufferBytes, retentionInterval);
    }

    public ArchiveConfig withMemory(long cacheBytes, long memtableBytes) {
        return new ArchiveConfig(dataDir, retention, syncWrites, maxBatchMessages, maxBatchDelay, maxPendingMessages,
                cacheBytes, memtableBytes, retentionInterval);
    }

    public ArchiveConfig withRetentionInterval(Duration interval) {
        return new ArchiveConfig(dataDir, retention, syncWrites, maxBatchMessages, maxBatchDelay, maxPendingMessages,
                blockCacheBytes, writeBufferBytes, interval);
    }
}
