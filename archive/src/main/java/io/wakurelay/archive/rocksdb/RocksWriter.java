package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.common.ArchiveMeters;
import io.wakurelay.archive.common.RetryBackoff;
import io.wakurelay.archive.common.SingleWriter;
import io.wakurelay.archive.common.WriteSession;
import io.wakurelay.protocol.Envelope;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The RocksDB archive's single writer: its thread owns every RocksDB write, the batches of the write stream and the
 * retention passes, so writes never contend with each other and a retention pass never races an insert. Each batch is
 * staged by the {@link BatchAssembler} into one WriteBatch and committed at once.
 *
 * <p>With {@link Durability#FLUSH} a second thread, the flusher, makes written batches durable: asked by the write
 * session, it flushes every memtable (RocksDB's atomic flush) and then tells the session up to which sequence number
 * its batches may be acknowledged. It runs beside the writer, so writes go on while a flush copies the last ones to
 * disk. A flush that fails (a full disk) is counted as an insert failure and retried with the writes' backoff.
 */
final class RocksWriter extends SingleWriter {
    private static final int LOG_EVERY_FAILURES = 10;

    private final RocksConfig config;
    private final ArchiveDatabase database;
    private final BatchAssembler assembler;
    private final BatchCommitter committer;
    private final ArchiveCounters counters;
    private final RocksMetrics rocksMetrics;
    /** Durability.FLUSH only, else null: the thread that flushes for acknowledgements. */
    private final Scheduler flusher;
    /** When the flush asked for last is due ({@link System#nanoTime()}), or Long.MAX_VALUE when none is scheduled. */
    private final AtomicLong flushDue = new AtomicLong(Long.MAX_VALUE);

    /**
     * One WriteBatch for the life of the writer, cleared between batches: it keeps its grown buffer, so each
     * batch does not allocate (and page-fault in) megabytes of fresh memory. Writer thread only.
     */
    private final WriteBatch writeBatch = new WriteBatch();

    // written by the writer thread, read by the flusher
    private volatile long writtenSequence;
    // written by the flusher
    private volatile long durableSequence;
    private volatile int consecutiveFlushFailures;

    RocksWriter(RocksConfig config, ArchiveDatabase database, BatchAssembler assembler, BatchCommitter committer,
                ArchiveCounters counters, ArchiveMeters meters, RocksMetrics rocksMetrics) {
        super(config.core(), meters, config.flushInterval(), "");
        this.config = config;
        this.database = database;
        this.assembler = assembler;
        this.committer = committer;
        this.counters = counters;
        this.rocksMetrics = rocksMetrics;
        this.flusher = config.durability() != Durability.FLUSH ? null : Schedulers.newSingle(task -> {
            Thread thread = new Thread(task, "waku-archive-flusher");
            thread.setDaemon(true);
            return thread;
        });
        this.writtenSequence = database.latestSequence();
        this.durableSequence = writtenSequence;
    }

    /**
     * Stages and commits one batch on the writer thread.
     *
     * @return the acknowledgement, or null when RocksDB refused the batch (counted and logged; the caller holds
     *         the batch and retries it)
     */
    @Override
    public CommittedBatch commit(List<Envelope> batch) {
        long start = System.nanoTime();
        writeBatch.clear();
        try {
            BatchAssembler.Staged staged = assembler.stage(batch, writeBatch);
            int stored = staged.stored().size();
            if (stored > 0) {
                committer.commit(writeBatch);
                writtenSequence = database.latestSequence();
                counters.applied(stored, staged.storedBytes());
                meters().committed(stored, start);
                for (String topic : assembler.storedTopics()) {
                    meters().shards().stored(topic);
                }
            }
            meters().taken(stored, staged.duplicates(), staged.ephemeralSkipped());
            recovered();
            return new CommittedBatch(staged.stored(), staged.duplicates(), staged.ephemeralSkipped(), System.nanoTime());
        } catch (RocksDBException e) {
            String error = RocksErrors.describe(e);
            failed(batch.size(), error, (RocksErrors.isNoSpace(e) ? "the disk is full" : "RocksDB refused the write")
                    + " (" + error + ")");
            return null;
        }
    }

    /**
     * A write made on the writer thread outside the stream (retention's deletes). With {@link Durability#FLUSH} it
     * reaches disk, and the Store's snapshot, only with the next flush, which this asks for: else an idle node would
     * go on answering queries with messages retention has deleted.
     */
    void wroteOutsideTheStream() {
        writtenSequence = database.latestSequence();
        makeDurableWithin(config.flushInterval().toNanos());
    }

    @Override
    public long writtenSequence() {
        return writtenSequence;
    }

    @Override
    public long durableSequence() {
        return flusher == null ? writtenSequence : durableSequence;
    }

    /** Schedules a flush on the flusher within {@code delayNanos}, unless one is due by then already. */
    @Override
    public void makeDurableWithin(long delayNanos) {
        if (flusher == null) {
            return;
        }
        long due = System.nanoTime() + delayNanos;
        for (long current; (current = flushDue.get()) > due; ) {
            if (flushDue.compareAndSet(current, due)) {
                try {
                    flusher.schedule(this::flushForAcknowledgements, delayNanos, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException closing) {
                    // closing: what is written is flushed when RocksDB closes, and no acknowledgement is sent any more
                }
                return;
            }
        }
    }

    /**
     * On the flusher: flushes every memtable, so that every batch written before the flush began is on disk, then
     * lets the session acknowledge them. Earlier-scheduled duplicates find nothing new and return.
     */
    private void flushForAcknowledgements() {
        flushDue.set(Long.MAX_VALUE);
        if (writtenSequence <= durableSequence) {
            return;
        }
        long start = System.nanoTime();
        long durable;
        try {
            durable = database.flush();
        } catch (ArchiveClosedException closed) {
            return;
        } catch (RocksDBException e) {
            meters().writeErrors().increment();
            noteError(RocksErrors.describe(e)); // before the count, as in failed()
            int failures = ++consecutiveFlushFailures;
            if (failures == 1 || failures % LOG_EVERY_FAILURES == 0) {
                log.atError().addKeyValue("failures", failures)
                        .addKeyValue("reason", RocksErrors.isNoSpace(e) ? "the disk is full" : "RocksDB refused the flush")
                        .addKeyValue("error", lastWriteError()).addKeyValue("retryMs", RetryBackoff.MAX.toMillis())
                        .log("archive flush failed. Written batches are not acknowledged and writes pause until a flush "
                                + "succeeds; retrying every retryMs at most.");
            }
            makeDurableWithin(RetryBackoff.delayNanos(failures));
            return;
        }
        rocksMetrics.flushLatency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        durableSequence = durable;
        if (consecutiveFlushFailures > 0) {
            log.atInfo().addKeyValue("failures", consecutiveFlushFailures).log("archive flushes recovered");
            consecutiveFlushFailures = 0;
        }
        WriteSession session = activeSession();
        if (session != null) {
            session.scheduleDrain();
        }
    }

    /** Whether writes, and with {@link Durability#FLUSH} flushes, succeed. */
    @Override
    public boolean writing() {
        return super.writing() && consecutiveFlushFailures == 0;
    }

    /** Never gives up: closing RocksDB under a running write would free memory it is using. */
    @Override
    protected Duration closeWait() {
        return null;
    }

    /** A flush that runs is waited for (RocksDB's close flushes what is left; no acknowledgement follows it). */
    @Override
    protected void writerStopped() {
        if (flusher != null) {
            awaitIdle(flusher, null);
            flusher.dispose();
        }
        writeBatch.close();
    }
}
