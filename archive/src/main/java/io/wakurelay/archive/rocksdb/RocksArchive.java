package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.protocol.Envelope;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded RocksDB archive, the default {@link MessageArchive}: every non-ephemeral message the node accepted,
 * written in batches by one writer thread with backpressure, queried with Store v3 semantics, and trimmed by a
 * retention policy. See docs/archive.md.
 *
 * <p>Thread-safe: {@link #write} runs on the archive's writer thread; {@link #query} runs on the caller's
 * thread (it blocks on RocksDB reads: call it from a thread that may block).
 */
public final class RocksArchive implements MessageArchive {
    private static final Logger log = LoggerFactory.getLogger(RocksArchive.class);

    private final ArchiveConfig config;
    private final ArchiveDatabase database;
    private final ArchiveCounters counters;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private final ArchiveMetrics metrics;
    private final ArchiveWriter writer;
    private final StoreReader reader;
    private final Retention retention;
    private final Disposable retentionSchedule;
    private final SmallFileMerger merger;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RocksArchive(ArchiveConfig config, ArchiveDatabase database, MeterRegistry registry, ArchiveHooks hooks)
            throws RocksDBException {
        this.config = config;
        this.database = database;
        this.counters = ArchiveCounters.load(database);
        this.metrics = new ArchiveMetrics(registry, database, counters, pending::get, unacknowledged::get);
        BatchCommitter committer = hooks.commitDecorator().apply(database::write);
        this.writer = new ArchiveWriter(config, database, new BatchAssembler(database, counters), committer, counters, metrics,
                pending, unacknowledged);
        this.reader = new StoreReader(database);
        BatchCommitter retentionCommitter = batch -> {
            committer.commit(batch);
            writer.wroteOutsideTheStream();
        };
        this.retention = new Retention(config.retention(), database, counters, retentionCommitter, metrics, writer.scheduler(),
                hooks.wallClockNanos(), hooks.retentionChunk());
        this.merger = SmallFileMerger.withDefaults(database, metrics);
        try {
            this.retentionSchedule = retention.schedule(config.retentionInterval());
            merger.schedule(SmallFileMerger.CHECK_INTERVAL);
        } catch (RuntimeException e) {
            merger.close();
            writer.close();
            metrics.close();
            throw e;
        }
    }

    /**
     * Opens (or creates) the archive in {@code config.dataDir()} and registers its meters.
     *
     * @throws ArchiveStorageException when the directory cannot be opened (locked by another process, not an
     *                                 archive, unreadable)
     */
    public static RocksArchive open(ArchiveConfig config, MeterRegistry registry) {
        return open(config, registry, ArchiveHooks.DEFAULT);
    }

    /** Opens with test hooks: a fault in front of RocksDB's write, a fixed clock, a small retention chunk. */
    static RocksArchive open(ArchiveConfig config, MeterRegistry registry, ArchiveHooks hooks) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(registry, "registry");
        ArchiveDatabase database = ArchiveDatabase.open(config);
        try {
            RocksArchive archive = new RocksArchive(config, database, registry, hooks);
            log.info("archive opened in {}: {} messages, {} bytes, retention {}", config.dataDir(),
                    archive.messageCount(), archive.storedBytes(), config.retention().spec());
            return archive;
        } catch (RocksDBException | RuntimeException e) {
            database.close();
            if (e instanceof RocksDBException rocks) {
                throw new ArchiveStorageException("cannot open the archive in " + config.dataDir() + ": " + Errors.describe(rocks), rocks);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * Archives the envelopes of {@code envelopes}, subscribing to it once per subscription of the result.
     *
     * <p>Ownership: the archive takes one reference of every envelope the stream emits (and of every envelope
     * an operator of the stream discards) and releases it exactly once: after its batch was committed, or when it
     * was a duplicate or ephemeral, or when the stream ends early (cancel, close, error).
     *
     * <p>Backpressure: at most {@link ArchiveConfig#maxPendingMessages()} envelopes are requested and not yet
     * committed; upstream is asked for more only as batches commit. The result emits one
     * {@link CommittedBatch} per batch, on the writer thread (do not block in its subscriber), and only when
     * requested: a subscriber that stops requesting also pauses the writer. An emitted batch is in the WAL.
     * When RocksDB refuses a write (disk full), the batch is held and retried with backoff, nothing is emitted
     * or dropped, and upstream stays paused until a write succeeds. The result completes when the stream
     * completed and everything was committed; it fails with the stream's error after committing what was
     * received, or with {@link ArchiveClosedException} when the archive is closed first. One write stream at a
     * time: a second concurrent subscription fails with {@link IllegalStateException}.
     */
    @Override
    public Flux<CommittedBatch> write(Flux<Envelope> envelopes) {
        Objects.requireNonNull(envelopes, "envelopes");
        return writer.write(envelopes);
    }

    /**
     * Registers the per-shard message count ({@code waku_archive_messages_per_shard}, docs/metrics.md) of each of
     * {@code pubsubTopics} at 0, so that a dashboard shows 0 rather than no data before their first message; a
     * topic not named here gets its count with its first stored message.
     */
    @Override
    public void expectTopics(Collection<String> pubsubTopics) {
        pubsubTopics.forEach(metrics.shards::expect);
    }

    /**
     * Runs one Store v3 query (see {@link StoreQuery}).
     *
     * @throws InvalidQueryException   when the cursor is not a stored message
     * @throws ArchiveClosedException  after {@link #close()}
     * @throws ArchiveStorageException when RocksDB fails to read
     */
    @Override
    public StoreResponse query(StoreQuery query) {
        Objects.requireNonNull(query, "query");
        try {
            return reader.execute(query, nanos -> metrics.queryLatency(query.kind()).record(nanos, TimeUnit.NANOSECONDS));
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("store query failed: " + Errors.describe(e), e);
        }
    }

    /**
     * Opens one page of a Store v3 query, to be read message by message ({@link RocksStorePage}); with data, the page
     * ends early, with a cursor, once its messages' stored bytes would pass {@code maxPageBytes} (its first message
     * is always in). The caller must close the page. The query latency metric records the time the archive spent on
     * it, from opening to closing, the time between reads not counted.
     *
     * @throws InvalidQueryException   when the cursor is not a stored message
     * @throws ArchiveClosedException  after {@link #close()}
     * @throws ArchiveStorageException when RocksDB fails to read
     */
    @Override
    public StorePage openPage(StoreQuery query, long maxPageBytes) {
        Objects.requireNonNull(query, "query");
        if (maxPageBytes < 1) {
            throw new IllegalArgumentException("a page's byte budget must be positive, was " + maxPageBytes);
        }
        try {
            return reader.open(query, maxPageBytes, nanos -> metrics.queryLatency(query.kind()).record(nanos, TimeUnit.NANOSECONDS));
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("store query failed: " + Errors.describe(e), e);
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

    /** Envelopes taken from the write stream and not yet committed. */
    @Override
    public int pendingMessages() {
        return pending.get();
    }

    /** Open and able to write: false while RocksDB refuses writes (e.g. the disk is full) and after close. */
    @Override
    public boolean healthy() {
        return !closed.get() && writer.writing();
    }

    /** The last write failure RocksDB reported (kept after recovery, for diagnosis). */
    @Override
    public Optional<String> lastWriteError() {
        return Optional.ofNullable(writer.lastWriteError());
    }

    /**
     * Runs a retention pass now, on the writer thread, and waits for it (the periodic passes run every
     * {@link ArchiveConfig#retentionInterval()} anyway).
     *
     * @throws ArchiveStorageException when RocksDB refused a deletion
     * @throws ArchiveClosedException  when the archive is closed
     * @throws IllegalStateException   on the archive's writer thread (in a CommittedBatch subscriber)
     */
    @Override
    public RetentionRun applyRetention() {
        writer.checkNotOnWriterThread("applyRetention()");
        try {
            return retention.start().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    @Override
    public ArchiveConfig config() {
        return config;
    }

    /** Flushes memtables to SST files (tests and benchmarks). */
    void flush() {
        try {
            database.flush();
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("flush failed: " + Errors.describe(e), e);
        }
    }

    ArchiveDatabase database() {
        return database;
    }

    /**
     * Ends the write stream (queued envelopes are released, not written), waits for the batch being committed,
     * stops retention, the small-file merger and the writer thread, closes open store pages, waits for running
     * queries and merges, then closes every RocksDB object and removes the meters. Idempotent. Not from a
     * CommittedBatch subscriber (the writer thread): {@link IllegalStateException}.
     */
    @Override
    public void close() {
        writer.checkNotOnWriterThread("close()");
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        retentionSchedule.dispose();
        retention.close();
        merger.close();
        writer.close();
        reader.close(); // open store pages hold snapshots, which must be released before the database closes
        metrics.close();
        database.close();
        log.info("archive closed in {}: {} messages, {} bytes", config.dataDir(), counters.messages(), counters.bytes());
    }
}
