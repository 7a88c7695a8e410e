package io.wakurelay.archive.common;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.CoreConfig;
import io.wakurelay.protocol.Envelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An archive's single writer: one thread ({@code waku-archive-writer}, a dedicated Reactor scheduler, not marked
 * non-blocking because stores block) that runs the write stream's {@link WriteSession}, one at a time, and every write
 * of the store. A backend says how a batch is committed ({@link #commit}) and when it is durable; this class does the
 * rest the same for every backend: the one stream at a time, the credits and acknowledgements (through the session),
 * the health of writes (a refused batch makes {@link #writing()} false until one succeeds, logged once and then every
 * {@value #LOG_EVERY_FAILURES} attempts), and closing (the stream ended, its queued envelopes released, the batch being
 * committed waited for).
 */
public abstract class SingleWriter implements WriteSession.Writer, AutoCloseable {
    private static final int LOG_EVERY_FAILURES = 10;
    /** How often closing says that it still waits for the writer. */
    private static final Duration CLOSE_WARNING_INTERVAL = Duration.ofSeconds(10);

    /** The backend's logger: what the writer logs is named after the backend's writer. */
    protected final Logger log = LoggerFactory.getLogger(getClass());
    private final CoreConfig core;
    private final ArchiveMeters meters;
    private final Duration flushInterval;
    private final String store;
    private final Scheduler scheduler;
    private final AtomicReference<WriteSession> active = new AtomicReference<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile Thread writerThread;
    // written by the writer thread (and a backend's helper threads), read by health checks
    private volatile int consecutiveFailures;
    private volatile String lastWriteError;

    /**
     * @param flushInterval the longest a written batch waits before its durability is asked for
     *                      ({@link #makeDurableWithin}; irrelevant where every commit is durable)
     * @param store         what logs call the store, after "archive write" ({@code ""}, or {@code " to PostgreSQL at ..."})
     */
    protected SingleWriter(CoreConfig core, ArchiveMeters meters, Duration flushInterval, String store) {
        this.core = core;
        this.meters = meters;
        this.flushInterval = flushInterval;
        this.store = store;
        this.scheduler = Schedulers.newSingle(task -> {
            Thread thread = new Thread(task, "waku-archive-writer");
            thread.setDaemon(true);
            writerThread = thread;
            return thread;
        });
    }

    /** {@link io.wakurelay.archive.MessageArchive#write}: one session at a time, on the writer thread. */
    public final Flux<CommittedBatch> write(Flux<Envelope> envelopes) {
        return Flux.create(sink -> {
            if (closing.get()) {
                sink.error(new ArchiveClosedException("the archive is closed"));
                return;
            }
            WriteSession session = new WriteSession(this, sink, core.maxBatchMessages(), core.maxPendingMessages(),
                    core.maxBatchDelay(), core.maxUnacknowledged(), flushInterval);
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
     * A batch the store refused: counted ({@code waku_archive_errors_total{type="insert_failure"}}), kept as the last
     * write error (health reports it), logged the first time and every {@value #LOG_EVERY_FAILURES} times after.
     *
     * @param error  the store's error, as health reports it
     * @param logged what the log line says of it
     */
    protected final void failed(int envelopes, String error, String logged) {
        meters.writeErrors().increment();
        // the error first: /health reads writing() and then this text, and must not find a failure without its reason
        lastWriteError = error;
        int failures = ++consecutiveFailures;
        if (failures == 1 || failures % LOG_EVERY_FAILURES == 0) {
            log.atError().addKeyValue("envelopes", envelopes).addKeyValue("failures", failures).addKeyValue("reason", logged)
                    .addKeyValue("retryMs", RetryBackoff.MAX.toMillis())
                    .log("archive write" + store + " failed. The batch is held and retried every retryMs at most; upstream "
                            + "is paused until a write succeeds.");
        }
    }

    /** A batch was committed: writes are healthy again, if they were not. */
    protected final void recovered() {
        int failures = consecutiveFailures;
        if (failures > 0) {
            consecutiveFailures = 0;
            log.atInfo().addKeyValue("failures", failures).log("archive writes" + store + " recovered");
        }
    }

    /** Keeps {@code error} as the last write error, for health, without counting a refused batch. */
    protected final void noteError(String error) {
        lastWriteError = error;
    }

    /** Whether writes succeed: false from a refused batch until the next one commits. */
    public boolean writing() {
        return consecutiveFailures == 0;
    }

    /** The last write failure the store reported (kept after recovery, for diagnosis), or null. */
    public final String lastWriteError() {
        return lastWriteError;
    }

    protected final ArchiveMeters meters() {
        return meters;
    }

    /** The session of the write stream now, or null. */
    protected final WriteSession activeSession() {
        return active.get();
    }

    @Override
    public final Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public final long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public final void pendingChanged(int delta) {
        meters.pendingChanged(delta);
    }

    @Override
    public final void unacknowledgedChanged(int delta) {
        meters.unacknowledgedChanged(delta);
    }

    @Override
    public final void sessionEnded(WriteSession session) {
        active.compareAndSet(session, null);
    }

    /**
     * @throws IllegalStateException on the writer thread (in a {@link CommittedBatch} subscriber, say), where waiting for
     *                               the writer would wait forever
     */
    public final void checkNotOnWriterThread(String operation) {
        if (Thread.currentThread() == writerThread) {
            throw new IllegalStateException(operation + " must not be called on the archive's writer thread "
                    + "(from a CommittedBatch subscriber): it would wait for itself");
        }
    }

    /**
     * Ends the write stream (its queued envelopes are released, not written), lets the batch being committed finish
     * (waiting at most {@link #closeWait()}), stops the writer thread, then {@link #writerStopped()}. Idempotent.
     */
    @Override
    public final void close() {
        checkNotOnWriterThread("close()");
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        WriteSession session = active.get();
        if (session != null) {
            session.abort(new ArchiveClosedException("the archive was closed before these envelopes were written"));
        }
        awaitIdle(scheduler, closeWait());
        scheduler.dispose();
        writerStopped();
        if (session != null) {
            session.releaseQueued();
        }
    }

    /** The longest closing waits for a commit in progress; null: until it ends. */
    protected abstract Duration closeWait();

    /** Closes what the backend's writer holds besides its thread, once that thread has stopped. */
    protected void writerStopped() {
    }

    /**
     * Waits until every task queued on {@code scheduler} so far has run, at most {@code limit} (null: however long it
     * takes), saying every {@code CLOSE_WARNING_INTERVAL} that it still waits; an interrupt is kept for the caller.
     */
    protected final void awaitIdle(Scheduler on, Duration limit) {
        CountDownLatch idle = new CountDownLatch(1);
        try {
            on.schedule(idle::countDown);
        } catch (RejectedExecutionException alreadyStopped) {
            return;
        }
        long started = System.nanoTime();
        boolean interrupted = false;
        while (true) {
            long left = limit == null ? Long.MAX_VALUE : limit.toNanos() - (System.nanoTime() - started);
            if (left <= 0) {
                log.warn("closing the archive: the writer did not finish its batch in time");
                break;
            }
            try {
                if (idle.await(Math.min(CLOSE_WARNING_INTERVAL.toNanos(), left), TimeUnit.NANOSECONDS)) {
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
