package io.wakurelay.archive;

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
import java.util.concurrent.atomic.AtomicReference;

/**
 * The single writer: one thread (a dedicated Reactor scheduler) that owns every RocksDB write, the batches of
 * the write stream and the retention passes, so writes never contend with each other and a retention pass
 * never races an insert. Its thread is not a Reactor non-blocking thread: RocksDB calls block.
 */
final class ArchiveWriter implements WriteSession.Writer, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ArchiveWriter.class);
    private static final int LOG_EVERY_FAILURES = 10;

    private final ArchiveConfig config;
    private final BatchAssembler assembler;
    private final BatchCommitter committer;
    private final ArchiveCounters counters;
    private final ArchiveMetrics metrics;
    private final Scheduler scheduler;
    private final AtomicInteger pending;
    private final AtomicReference<WriteSession> active = new AtomicReference<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile Thread writerThread;

    /**
     * One WriteBatch for the life of the writer, cleared between batches: it keeps its grown buffer, so each
     * batch does not allocate (and page-fault in) megabytes of fresh memory. Writer thread only.
     */
    private final WriteBatch writeBatch = new WriteBatch();

    // written by the writer thread, read by health checks
    private volatile int consecutiveFailures;
    private volatile String lastWriteError;

    ArchiveWriter(ArchiveConfig config, BatchAssembler assembler, BatchCommitter committer, ArchiveCounters counters,
                  ArchiveMetrics metrics, AtomicInteger pending) {
        this.config = config;
        this.assembler = assembler;
        this.committer = committer;
        this.counters = counters;
        this.metrics = metrics;
        this.pending = pending;
        this.scheduler = Schedulers.newSingle(task -> {
            Thread thread = new Thread(task, "waku-archive-writer");
            thread.setDaemon(true);
            writerThread = thread;
            return thread;
        });
    }

    Flux<CommittedBatch> write(Flux<Envelope> envelopes) {
        return Flux.create(sink -> {
            if (closing.get()) {
                sink.error(new ArchiveClosedException("the archive is closed"));
                return;
            }
            WriteSession session = new WriteSession(this, sink, config.maxBatchMessages(), config.maxPendingMessages(),
                    config.maxBatchDelay());
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
        int failures = ++consecutiveFailures;
        lastWriteError = Errors.describe(e);
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

    boolean writing() {
        return consecutiveFailures == 0;
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
        awaitIdle();
        scheduler.dispose();
        writeBatch.close();
        if (session != null) {
            session.releaseQueued();
        }
    }

    /** Waits until every task queued on the writer thread so far has run. */
    private void awaitIdle() {
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
                log.warn("closing the archive: still waiting for the writer to finish its current batch");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
