package io.wakurelay.archive;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the archive stores, batches, bounds and expires messages. Validated at construction: a bad value is an
 * {@link IllegalArgumentException} that names the field and the accepted range.
 *
 * @param dataDir           the RocksDB directory (created when missing); not used with PostgreSQL
 * @param retention         what to delete, see {@link RetentionPolicy#parse(String)}
 * @param durability        what an acknowledgement promises, see {@link Durability}
 * @param flushInterval     with {@link Durability#FLUSH}: the longest a written batch waits before a flush that will
 *                          acknowledge it is asked for (0: a flush after every batch)
 * @param maxBatchMessages  envelopes per RocksDB WriteBatch at most
 * @param maxBatchDelay     how long a batch that is not full waits for more envelopes (0, the default: commit at once)
 * @param maxPendingMessages envelopes requested from upstream and not yet committed, at most
 * @param blockCacheBytes   the LRU block cache shared by every column family; memtables are charged to it too
 * @param writeBufferBytes  memtable budget for all column families together: above it the largest memtable is flushed;
 *                          while flushes lag, writes stall at two memtables per family (at most about 2.25 times this)
 * @param retentionInterval time between two retention passes
 * @param writeRateBytes    bytes per second RocksDB may write in flushes and compactions (its rate limiter), so that the
 *                          archive leaves the disk to others; 0: no limit. The write-ahead log is not limited: when
 *                          flushes fall behind, writes stall and the archive's backpressure slows its peers
 * @param postgres          null for the embedded RocksDB store (the default); else the PostgreSQL database the archive
 *                          is kept in, with nwaku's schema. The RocksDB settings (the directory, durability, memory, write
 *                          rate) then do not apply; batching, backpressure and retention do
 * @param directIo          whether RocksDB's flushes and compactions write with direct I/O where the data directory's
 *                          file system takes it (docs/adr/0077); false: through the page cache
 */
@RecordBuilder
public record ArchiveConfig(Path dataDir, RetentionPolicy retention, Durability durability, Duration flushInterval,
                            int maxBatchMessages,
                            Duration maxBatchDelay, int maxPendingMessages, long blockCacheBytes,
                            long writeBufferBytes, Duration retentionInterval, long writeRateBytes, PostgresConfig postgres,
                            boolean directIo) {
    private static final int MAX_BATCH_MESSAGES_LIMIT = 10_000;
    /**
     * PostgreSQL: one batch is one multi-row INSERT of 8 bind parameters per message, and a statement takes at most
     * 65,535 of them; a larger batch would fail every time and be retried for ever.
     */
    public static final int MAX_POSTGRES_BATCH_MESSAGES = 65_535 / 8;
    /** The batch delay of an archive in PostgreSQL ({@link #withPostgres}); RocksDB's default is none. */
    public static final Duration POSTGRES_MAX_BATCH_DELAY = Duration.ofMillis(5);
    private static final int MAX_PENDING_LIMIT = 1_000_000;
    private static final Duration MAX_BATCH_DELAY_LIMIT = Duration.ofSeconds(10);
    private static final Duration MAX_FLUSH_INTERVAL_LIMIT = Duration.ofSeconds(60);
    private static final long MIN_MEMORY_BYTES = 1L << 20;
    private static final long MIN_WRITE_RATE_BYTES = 1L << 20;

    /**
     * Every default (flags, docs and tests read them here): nwaku's two-day retention, batches of at most 64
     * envelopes committed as soon as the writer is free (what arrives during a commit goes into the next: ADR 0082),
     * 256 envelopes in flight, a 128 MiB block cache with 64 MiB of memtables charged to it,
     * acknowledged once in the write-ahead log (a flush-acknowledged archive asks for a flush within 200 ms), with no
     * limit on the rate it writes to disk, flushes and compactions with direct I/O where the disk takes it.
     */
    public static final ArchiveConfig DEFAULTS = new ArchiveConfig(Path.of("data", "store"),
            new RetentionPolicy.Time(Duration.ofDays(2)), Durability.WAL, Duration.ofMillis(200), 64, Duration.ZERO, 256, 128L << 20, 64L << 20,
            Duration.ofMinutes(5), 0, null, true);

    public ArchiveConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(flushInterval, "flushInterval");
        Objects.requireNonNull(maxBatchDelay, "maxBatchDelay");
        Objects.requireNonNull(retentionInterval, "retentionInterval");
        if (maxBatchMessages < 1 || maxBatchMessages > MAX_BATCH_MESSAGES_LIMIT) {
            throw new IllegalArgumentException("maxBatchMessages must be 1.." + MAX_BATCH_MESSAGES_LIMIT + ", was " + maxBatchMessages);
        }
        if (postgres != null && maxBatchMessages > MAX_POSTGRES_BATCH_MESSAGES) {
            throw new IllegalArgumentException("maxBatchMessages must be at most " + MAX_POSTGRES_BATCH_MESSAGES
                    + " with PostgreSQL (65,535 bind parameters per statement, 8 per message), was " + maxBatchMessages);
        }
        if (maxBatchDelay.isNegative() || maxBatchDelay.compareTo(MAX_BATCH_DELAY_LIMIT) > 0) {
            throw new IllegalArgumentException("maxBatchDelay must be 0.." + MAX_BATCH_DELAY_LIMIT.toSeconds() + " s, was " + maxBatchDelay);
        }
        if (flushInterval.isNegative() || flushInterval.compareTo(MAX_FLUSH_INTERVAL_LIMIT) > 0) {
            throw new IllegalArgumentException("flushInterval must be 0.." + MAX_FLUSH_INTERVAL_LIMIT.toSeconds() + " s, was " + flushInterval);
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
        // below 1 MiB/s a single flush of the default memtables would take a minute and stall every write meanwhile
        if (writeRateBytes != 0 && writeRateBytes < MIN_WRITE_RATE_BYTES) {
            throw new IllegalArgumentException("writeRateBytes must be 0 (no limit) or at least 1 MiB per second, was " + writeRateBytes);
        }
    }

    /** Which backend this config opens: {@code rocksdb} or {@code postgres} (the {@code backend} label of metrics and logs). */
    public String backend() {
        return postgres == null ? "rocksdb" : "postgres";
    }

    /**
     * This config archiving in the PostgreSQL database {@code postgres} (null: in RocksDB, as it was), a partial batch
     * waiting {@link #POSTGRES_MAX_BATCH_DELAY} for company: every PostgreSQL commit is a round trip and an fsync
     * on the server, and there committing at once measured no faster (ADR 0082).
     */
    public ArchiveConfig withPostgres(PostgresConfig postgres) {
        return postgres == null ? this : toBuilder().postgres(postgres).maxBatchDelay(POSTGRES_MAX_BATCH_DELAY).build();
    }

    /** {@link #DEFAULTS} in {@code dataDir}. */
    public static ArchiveConfig defaults(Path dataDir) {
        return builder().dataDir(dataDir).build();
    }

    public static ArchiveConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }

    public ArchiveConfigBuilder toBuilder() {
        return ArchiveConfigBuilder.builder(this);
    }
}
