package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.common.ArchiveCore;
import io.wakurelay.archive.common.ArchiveMeters;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.function.LongConsumer;

/**
 * The embedded RocksDB archive, the default {@link MessageArchive}: every non-ephemeral message the node accepted,
 * written in batches by one writer thread ({@link RocksWriter}) with backpressure, queried with Store v3 semantics
 * ({@link RocksReader}), and trimmed by a retention policy ({@link RocksRetention}) on the writer thread. See
 * docs/archive.md. What every backend does the same is {@link ArchiveCore}'s.
 *
 * <p>Thread-safe: writes run on the archive's writer thread; queries run on the caller's thread (they block on
 * RocksDB reads: call them from a thread that may block). An acknowledged batch is durable as the config's
 * {@link io.wakurelay.archive.Durability} says.
 */
public final class RocksArchive extends ArchiveCore {
    private static final Logger log = LoggerFactory.getLogger(RocksArchive.class);

    private final RocksConfig config;
    private final ArchiveDatabase database;
    private final ArchiveCounters counters;
    private final ArchiveMeters meters;
    private final RocksWriter writer;
    private final RocksReader reader;
    private final RocksRetention retention;
    private final Disposable retentionSchedule;
    private final SmallFileMerger merger;

    private RocksArchive(RocksConfig config, ArchiveDatabase database, ArchiveCounters counters, ArchiveMeters meters,
                         RocksMetrics own, BatchCommitter committer, RocksWriter writer, ArchiveHooks hooks) {
        super(config, meters, writer);
        this.config = config;
        this.database = database;
        this.counters = counters;
        this.meters = meters;
        this.writer = writer;
        this.reader = new RocksReader(database);
        BatchCommitter retentionCommitter = batch -> {
            committer.commit(batch);
            writer.wroteOutsideTheStream();
        };
        this.retention = new RocksRetention(config.core().retention(), database, counters, retentionCommitter, meters,
                writer.scheduler(), hooks.wallClockNanos(), hooks.retentionChunk());
        this.merger = SmallFileMerger.withDefaults(database, own);
        try {
            this.retentionSchedule = retention.schedule(config.core().retentionInterval());
            merger.schedule(SmallFileMerger.CHECK_INTERVAL);
        } catch (RuntimeException e) {
            merger.close();
            writer.close();
            throw e;
        }
    }

    /**
     * Opens (or creates) the archive in {@code config.dataDir()} and registers its meters.
     *
     * @throws ArchiveStorageException when the directory cannot be opened (locked by another process, not an
     *                                 archive, unreadable)
     */
    public static RocksArchive open(RocksConfig config, MeterRegistry registry) {
        return open(config, registry, ArchiveHooks.DEFAULT);
    }

    /** Opens with test hooks: a fault in front of RocksDB's write, a fixed clock, a small retention chunk. */
    static RocksArchive open(RocksConfig config, MeterRegistry registry, ArchiveHooks hooks) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(registry, "registry");
        ArchiveDatabase database = ArchiveDatabase.open(config);
        try {
            RocksArchive archive = create(config, database, registry, hooks);
            log.atInfo().addKeyValue("file", String.valueOf(config.dataDir())).addKeyValue("messages", archive.messageCount())
                    .addKeyValue("bytes", archive.storedBytes()).addKeyValue("retention", config.core().retention().spec())
                    .log("archive opened");
            return archive;
        } catch (RocksDBException | RuntimeException e) {
            database.close();
            if (e instanceof RocksDBException rocks) {
                throw new ArchiveStorageException("cannot open the archive in " + config.dataDir() + ": "
                        + RocksErrors.describe(rocks), rocks);
            }
            throw (RuntimeException) e;
        }
    }

    /** Loads the counters, registers the meters and makes the writer, then the rest; the meters go on a failure. */
    private static RocksArchive create(RocksConfig config, ArchiveDatabase database, MeterRegistry registry, ArchiveHooks hooks)
            throws RocksDBException {
        ArchiveCounters counters = ArchiveCounters.load(database);
        ArchiveMeters meters = new ArchiveMeters(registry, counters::messages, counters::bytes);
        try {
            RocksMetrics own = new RocksMetrics(meters, database);
            BatchCommitter committer = hooks.commitDecorator().apply(database::write);
            RocksWriter writer = new RocksWriter(config, database, new BatchAssembler(database, counters), committer, counters,
                    meters, own);
            return new RocksArchive(config, database, counters, meters, own, committer, writer, hooks);
        } catch (RuntimeException e) {
            meters.close();
            throw e;
        }
    }

    /**
     * A page read under one RocksDB snapshot ({@link RocksPage}).
     *
     * @throws InvalidQueryException   when the cursor is not a stored message
     * @throws ArchiveClosedException  after {@link #close()}
     * @throws ArchiveStorageException when RocksDB fails to read
     */
    @Override
    protected StorePage open(StoreQuery query, long maxPageBytes, LongConsumer busyNanos) {
        try {
            return reader.open(query, maxPageBytes, busyNanos);
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("store query failed: " + RocksErrors.describe(e), e);
        }
    }

    /** Messages stored: exact, persistent across restarts. */
    @Override
    public long messageCount() {
        return counters.messages();
    }

    /** Bytes of stored messages: the sum of their WakuMessage encodings as received (not the disk usage). */
    @Override
    public long storedBytes() {
        return counters.bytes();
    }

    /** A retention pass on the writer thread, waited for; {@link ArchiveStorageException} when RocksDB refused a deletion. */
    @Override
    protected RetentionRun retain() {
        try {
            return retention.start().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Flushes memtables to SST files (tests and benchmarks). */
    void flush() {
        try {
            database.flush();
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("flush failed: " + RocksErrors.describe(e), e);
        }
    }

    ArchiveDatabase database() {
        return database;
    }

    /**
     * Stops retention, the small-file merger and the writer (the batch being committed finishes, queued envelopes are
     * released), closes open store pages and waits for running queries and merges, then closes every RocksDB object
     * and removes the meters.
     */
    @Override
    protected void closeStore() {
        retentionSchedule.dispose();
        retention.close();
        merger.close();
        writer.close();
        reader.close(); // open store pages hold snapshots, which must be released before the database closes
        meters.close();
        database.close();
        log.atInfo().addKeyValue("file", String.valueOf(config.dataDir())).addKeyValue("messages", counters.messages())
                .addKeyValue("bytes", counters.bytes()).log("archive closed");
    }
}
