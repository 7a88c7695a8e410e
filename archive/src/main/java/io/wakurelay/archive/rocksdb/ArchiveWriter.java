package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.common.RetryBackoff;
import io.wakurelay.archive.common.WriteSession;
import io.wakurelay.protocol.Envelope;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The single writer: one thread (a dedicated Reactor scheduler) that owns every RocksDB write, the batches of
 * the write stream and the retention passes, so writes never contend with each other and a retention pass
 * never races an insert. Its thread is not a Reactor non-blocking thread: RocksDB calls block.
 *
 * <p>With {@link Durability#FLUSH} a second thread, the flusher, makes written batches durable: asked by the write
 * session, it flushes every memtable (RocksDB's atomic flush) and then tells the session up to which sequence number
 * its batches may be acknowledged. It runs beside the writer, so writes go on while a flush copies the last ones to
 * disk. A flush that fails (a full disk) is counted as an insert failure and retried with the writes' backoff.
 */
final class ArchiveWriter implements WriteSession.Writer, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ArchiveWriter.class);
    private static final int LOG_EVERY_FAILURES = 10;

    private final ArchiveConfig config;
    private final ArchiveDatabase database;
    private final BatchAssembler assembler;
    private final BatchCommitter committer;
    private final ArchiveCounters counters;
    private final ArchiveMetrics metrics;
    private final Scheduler scheduler;
    private final AtomicInteger pending;
    private final AtomicInteger unacknowledged;
    /** Durability.FLUSH only, else null: the thread that flushes for acknowledgements. */
    private final Scheduler flusher;
    /** When the flush asked for last is due ({@link System#nanoTime()}), or Long.MAX_VALUE when none is scheduled. */
    private final AtomicLong flushDue = new AtomicLong(Long.MAX_VALUE);
    private final AtomicReference<WriteSession> active = new AtomicReference<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile Thread writerThread;

    /**
     * One WriteBatch for the life of the writer, cleared between batches: it keeps its grown buffer, so each
     * batch does not allocate (and page-fault in) megabytes of fresh memory. Writer thread only.
     */
    private final WriteBatch writeBatch = new WriteBatch();

    // written by the writer thread, read by the flusher and health checks
    private volatile int consecutiveFailures;
    private volatile String lastWriteError;
    private volatile long writtenSequence;
    // written by the flusher
    private volatile long durableSequence;
    private volatile int consecutiveFlushFailures;

    ArchiveWriter(ArchiveConfig config, ArchiveDatabase database, BatchAssembler assembler, BatchCommitter committer,
                  ArchiveCounters counters, ArchiveMetrics metrics, AtomicInteger pending, AtomicInteger unacknowledged) {
        this.config = config;
        this.database = database;
        this.assembler = assembler;
        this.committer = committer;
        this.counters = counters;
        this.metrics = metrics;
        this.pending = pending;
        this.unacknowledged = unacknowledged;
        this.scheduler = Schedulers.newSingle(task -> {
            Thread thread = new Thread(task, "waku-archive-writer");
            thread.setDaemon(true);
            writerThread = thread;
            return thread;
        });
        this.flusher = config.durability() != Durability.FLUSH ? null : Schedulers.newSingle(task -> {
            Thread thread = new Thread(task, "waku-archive-flusher");
            thread.setDaemon(true);
            return thread;
        });
        this.writtenSequence = database.latestSequence();
        this.durableSequence = writtenSequence;
    }

    Flux<CommittedBatch> write(Flux<Envelope> envelopes) {
        return Flux.create(sink -> {
            if (closing.get()) {
                sink.error(new ArchiveClosedException("the archive is closed"));
                return;
            }
            WriteSession session = new WriteSession(this, sink, config.maxBatchMessages(), config.maxPendingMessages(),
                    config.maxBatchDelay(), maxUnacknowledged(config), config.flushInterval());
            if (!active.compareAndSet(null, session)) {
                sink.error(new IllegalStateException("the archive already has a write stream; it takes one at a time"));
                return;
            }
            sink.onRequest(n -> session.scheduleDrain());
            sink.onCancel(session::cancel);
            if (closing.get()) {
                session.abort(new ArchiveClosedException("the archive is closed"));
            }
            envelopes.doOnDiscard(Envelope.class, WriteSession::release).subscribe(session);
        }, FluxSink.OverflowStrategy.ERROR);
    }

    /**
     * Envelopes written and waiting for their acknowledgement, at most: eight times the envelopes in flight before
     * the write. It bounds the acknowledgements held (a hash each) while a flush runs; the bytes written and not yet
     * flushed are bounded by RocksDB's memtable budget, which stalls writes above it.
     */
    static int maxUnacknowledged(ArchiveConfig config) {
        return 8 * config.maxPendingMessages();
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
                metrics.writes.increment();
                metrics.batchMessages.record(stored);
                metrics.writeLatency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                for (String topic : assembler.storedTopics()) {
                    metrics.shards.stored(topic);
                }
            }
            metrics.inserts.increment(stored);
            metrics.duplicates.increment(staged.duplicates());
            metrics.ephemeralSkipped.increment(staged.ephemeralSkipped());
            recovered();
            return new CommittedBatch(staged.stored(), staged.duplicates(), staged.ephemeralSkipped(), System.nanoTime());
        } catch (RocksDBException e) {
            metrics.writeErrors.increment();
            failed(e, batch.size());
            return null;
        }
    }

    private void failed(RocksDBException e, int envelopes) {
        // the error first: /health reads writing() and then this text, and must not find a failure without its reason
        lastWriteError = Errors.describe(e);
        int failures = ++consecutiveFailures;
        if (failures == 1 || failures % LOG_EVERY_FAILURES == 0) {
            String why = Errors.isNoSpace(e) ? "the disk is full" : "RocksDB refused the write";
            log.error("archive write of {} envelopes failed ({} attempt(s) so far): {} ({}). The batch is held and retried "
                            + "every {} ms at most; upstream is paused until a write succeeds.",
                    envelopes, failures, why, lastWriteError, RetryBackoff.MAX.toMillis());
        }
    }

    private void recovered() {
        int failures = consecutiveFailures;
        if (failures > 0) {
            consecutiveFailures = 0;
            log.info("archive writes recovered after {} failed attempt(s)", failures);
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
            metrics.writeErrors.increment();
            lastWriteError = Errors.describe(e); // before the count, as in failed()
            int failures = ++consecutiveFlushFailures;
            if (failures == 1 || failures % LOG_EVERY_FAILURES == 0) {
                log.error("archive flush failed ({} attempt(s) so far): {} ({}). Written batches are not acknowledged "
                                + "and writes pause until a flush succeeds; retrying every {} ms at most.",
                        failures, Errors.isNoSpace(e) ? "the disk is full" : "RocksDB refused the flush", lastWriteError,
                        RetryBackoff.MAX.toMillis());
            }
            makeDurableWithin(RetryBackoff.delayNanos(failures));
            return;
        }
        metrics.flushLatency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        durableSequence = durable;
        if (consecutiveFlushFailures > 0) {
            log.info("archive flushes recovered after {} failed attempt(s)", consecutiveFlushFailures);
            consecutiveFlushFailures = 0;
        }
        WriteSession session = active.get();
        if (session != null) {
            session.scheduleDrain();
        }
    }

    boolean writing() {
        return consecutiveFailures == 0 && consecutiveFlushFailures == 0;
    }

    String lastWriteError() {
        return lastWriteError;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    /**
     * @throws IllegalStateException on the writer thread (in a {@link CommittedBatch} subscriber, say), where
     *                               waiting for the writer would wait forever
     */
    void checkNotOnWriterThread(String operation) {
        if (Thread.currentThread() == writerThread) {
            throw new IllegalStateException(operation + " must not be called on the archive's writer thread "
                    + "(from a CommittedBatch subscriber): it would wait for itself");
        }
    }

    @Override
    public void pendingChanged(int delta) {
        pending.addAndGet(delta);
    }

    @Override
    public void unacknowledgedChanged(int delta) {
        unacknowledged.addAndGet(delta);
    }

    @Override
    public void sessionEnded(WriteSession session) {
        active.compareAndSet(session, null);
    }

    /**
     * Ends the write stream (its queued envelopes are released, not written), lets the batch being committed
     * finish, and stops the writer thread.
     */
    @Override
    public void close() {
        checkNotOnWriterThread("close()");
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        WriteSession session = active.get();
        if (session != null) {
            session.abort(new ArchiveClosedException("the archive was closed before these envelopes were written"));
        }
        awaitIdle(scheduler);
        scheduler.dispose();
        if (flusher != null) {
            // a flush that runs is waited for (RocksDB's close flushes what is left; no acknowledgement follows it)
            awaitIdle(flusher);
            flusher.dispose();
        }
        writeBatch.close();
        if (session != null) {
            session.releaseQueued();
        }
    }

    /** Waits until every task queued on {@code scheduler} so far has run. */
    private static void awaitIdle(Scheduler scheduler) {
        CountDownLatch idle = new CountDownLatch(1);
        try {
            scheduler.schedule(idle::countDown);
        } catch (RejectedExecutionException alreadyStopped) {
            return;
        }
        boolean interrupted = false;
        // never give up waiting: closing RocksDB under a running write would free memory it is using
        while (true) {
            try {
                if (idle.await(10, TimeUnit.SECONDS)) {
                    break;
                }
                log.warn("closing the archive: still waiting for the writer to finish its current batch or flush");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
