package io.wakurelay.archive.common;

import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.Durability;
import io.wakurelay.protocol.Envelope;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Scheduler;
import reactor.util.context.Context;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One subscription of {@link io.wakurelay.archive.MessageArchive#write}: takes envelopes from upstream with credit-based
 * backpressure, groups them into batches on the writer thread, and emits one {@link CommittedBatch} per batch once
 * the batch is durable as {@link Durability} says.
 *
 * <p>Credits: upstream is asked for {@code maxPendingMessages} envelopes at first, and for as many more as a
 * batch held only after that batch was written. Envelopes received and not yet written therefore never
 * exceed {@code maxPendingMessages}; when the writer is slow, or the store refuses writes, or the subscriber of
 * the acknowledgements stops requesting them, upstream is simply not asked for more. The queue is bounded by
 * the same number and cannot overflow unless upstream breaks the Reactive Streams rules (that ends the stream).
 *
 * <p>Acknowledgements: a written batch waits in {@link #unacknowledged} until the writer says it is durable (at
 * once with a WAL; after the flush that wrote it with {@link Durability#FLUSH}) and the subscriber has asked for an
 * acknowledgement. At most {@code maxUnacknowledged} envelopes wait there: past that no batch is written and
 * a flush is asked for at once.
 *
 * <p>Threads: all batching, commits, emissions and terminal signals happen on the writer thread. Envelopes
 * arrive on the upstream's thread and only enter the queue. Ownership: every envelope received is released
 * exactly once, by the writer after its batch was written, or by whichever thread empties the queue after
 * the session ended (cancel, close, error).
 */
public final class WriteSession implements CoreSubscriber<Envelope> {
    private static final Logger log = LoggerFactory.getLogger(WriteSession.class);

    /**
     * What a session needs from the single writer ({@link SingleWriter}): a seam so that a test can run a session
     * on virtual time, with commits that fail when it says, and see each interleaving of timers and envelopes.
     */
    public interface Writer {
        /** The writer thread: every drain and timer of the session runs on it. */
        Scheduler scheduler();

        /** The time the session's timers are measured in, in nanoseconds ({@link System#nanoTime()} in production). */
        long nanoTime();

        /** @return the acknowledgement, or null when the batch was refused (the session holds it and retries) */
        CommittedBatch commit(List<Envelope> batch);

        /** The sequence number of the last commit (RocksDB's, or a count of commits: it rises with every write). */
        long writtenSequence();

        /** Every commit with a sequence number up to this one is durable as the archive's {@link Durability} says. */
        long durableSequence();

        /** Asks for what was written so far to become durable within {@code delayNanos} (a no-op where it is at once). */
        void makeDurableWithin(long delayNanos);

        void pendingChanged(int delta);

        /** Envelopes written and not yet acknowledged changed by {@code delta}. */
        void unacknowledgedChanged(int delta);

        void sessionEnded(WriteSession session);
    }

    private final Writer writer;
    private final FluxSink<CommittedBatch> sink;
    private final int maxBatch;
    private final int maxPending;
    private final long maxDelayNanos;
    private final int maxUnacknowledged;
    private final long flushIntervalNanos;
    private final ArrayBlockingQueue<Envelope> queue;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();

    private volatile Subscription upstream;
    private volatile boolean upstreamDone;
    private volatile Throwable upstreamError;
    private volatile Throwable abortCause;
    private volatile boolean cancelled;
    private volatile boolean terminated;

    // writer thread only
    private boolean creditGranted;
    private List<Envelope> held;
    private int failures;
    private long retryAtNanos;
    private long windowStartNanos = -1;
    private Disposable timer;
    private long timerDueNanos;
    /** Written batches in commit order, each with the sequence number it must wait for. */
    private final ArrayDeque<Written> unacknowledged = new ArrayDeque<>();
    private int unacknowledgedEnvelopes;

    private record Written(CommittedBatch ack, long sequence) {
    }

    /**
     * @param maxUnacknowledged envelopes written and not yet acknowledged, at most (see the class comment)
     * @param flushInterval     the longest a written batch waits before its durability is asked for
     */
    public WriteSession(Writer writer, FluxSink<CommittedBatch> sink, int maxBatch, int maxPending, Duration maxBatchDelay,
                 int maxUnacknowledged, Duration flushInterval) {
        this.writer = writer;
        this.sink = sink;
        this.maxBatch = maxBatch;
        this.maxPending = maxPending;
        this.maxDelayNanos = maxBatchDelay.toNanos();
        this.maxUnacknowledged = maxUnacknowledged;
        this.flushIntervalNanos = flushInterval.toNanos();
        this.queue = new ArrayBlockingQueue<>(maxPending);
    }

    @Override
    public Context currentContext() {
        return Context.of(sink.contextView());
    }

    @Override
    public void onSubscribe(Subscription subscription) {
        if (upstream != null) {
            subscription.cancel();
            return;
        }
        upstream = subscription;
        if (terminated) {
            subscription.cancel();
            return;
        }
        scheduleDrain();
    }

    @Override
    public void onNext(Envelope envelope) {
        if (terminated) {
            release(envelope);
            return;
        }
        writer.pendingChanged(1);
        if (!queue.offer(envelope)) {
            writer.pendingChanged(-1);
            release(envelope);
            abortCause = Exceptions.failWithOverflow("upstream emitted more envelopes than the " + maxPending + " requested");
            scheduleDrain();
            return;
        }
        if (terminated) {
            // the session ended while this envelope was being queued: nobody else will look at the queue again
            releaseQueued();
        } else {
            scheduleDrain();
        }
    }

    @Override
    public void onError(Throwable error) {
        upstreamError = error;
        upstreamDone = true;
        scheduleDrain();
    }

    @Override
    public void onComplete() {
        upstreamDone = true;
        scheduleDrain();
    }

    /** The acknowledgement subscriber cancelled. */
    public void cancel() {
        cancelled = true;
        scheduleDrain();
    }

    /** Ends the session with {@code cause} (archive closing): what is queued is released, not written. */
    public void abort(Throwable cause) {
        abortCause = cause;
        scheduleDrain();
    }

    public void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                writer.scheduler().schedule(this::drain);
            } catch (RejectedExecutionException stopped) {
                drainScheduled.set(false);
                terminated = true;
                releaseQueued();
            }
        }
    }

    private void drain() {
        drainScheduled.set(false);
        if (terminated) {
            releaseQueued();
            return;
        }
        try {
            Subscription subscription = upstream;
            if (subscription != null && !creditGranted && abortCause == null && !cancelled) {
                creditGranted = true;
                subscription.request(maxPending);
            }
            commitAvailable();
        } catch (RuntimeException fatal) {
            log.error("archive write stream failed; releasing its envelopes", fatal);
            terminate(fatal);
        }
    }

    private void commitAvailable() {
        for (; ; ) {
            if (abortCause != null || cancelled) {
                terminate(abortCause);
                return;
            }
            acknowledgeDurable();
            if (unacknowledgedEnvelopes >= maxUnacknowledged) {
                // the acknowledgements are behind (a flush, or the subscriber): write no more until they catch up
                askForDurability(0);
                return;
            }
            if (held != null) {
                long now = writer.nanoTime();
                if (now < retryAtNanos) {
                    // woken before the retry is due (by an earlier timer or a new envelope): the retry must stay armed,
                    // else a held batch waits for the next event, which may never come while the node refuses more
                    armTimer(now, retryAtNanos - now);
                    return;
                }
                if (sink.requestedFromDownstream() == 0) {
                    return;
                }
                if (!attempt(held)) {
                    return;
                }
                continue;
            }
            int available = queue.size();
            if (available == 0) {
                if (upstreamDone) {
                    if (unacknowledged.isEmpty()) {
                        finish();
                    } else {
                        // the stream ends only once everything it wrote is acknowledged
                        askForDurability(0);
                    }
                }
                return;
            }
            if (sink.requestedFromDownstream() == 0) {
                return;
            }
            if (available < maxBatch && !upstreamDone && maxDelayNanos > 0) {
                long now = writer.nanoTime();
                if (windowStartNanos < 0) {
                    windowStartNanos = now;
                }
                long wait = windowStartNanos + maxDelayNanos - now;
                if (wait > 0) {
                    armTimer(now, wait);
                    return;
                }
            }
            windowStartNanos = -1;
            int size = Math.min(available, maxBatch);
            List<Envelope> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                batch.add(queue.poll());
            }
            if (!attempt(batch)) {
                return;
            }
        }
    }

    /** @return false when the store refused the batch; it is then held and retried after a backoff */
    private boolean attempt(List<Envelope> batch) {
        held = batch;
        CommittedBatch ack = writer.commit(batch);
        if (ack == null) {
            failures++;
            long delay = RetryBackoff.delayNanos(failures);
            long now = writer.nanoTime();
            retryAtNanos = now + delay;
            armTimer(now, delay);
            return false;
        }
        held = null;
        failures = 0;
        releaseAll(batch);
        unacknowledged.add(new Written(ack, writer.writtenSequence()));
        unacknowledgedEnvelopes += ack.envelopes();
        writer.unacknowledgedChanged(ack.envelopes());
        askForDurability(flushIntervalNanos);
        acknowledgeDurable();
        upstream.request(batch.size());
        return true;
    }

    /** Emits, in order, the acknowledgements of the written batches that are durable, as far as there is demand. */
    private void acknowledgeDurable() {
        if (unacknowledged.isEmpty()) {
            return;
        }
        long durable = writer.durableSequence();
        for (Written next; (next = unacknowledged.peek()) != null && next.sequence <= durable
                && sink.requestedFromDownstream() > 0; ) {
            unacknowledged.poll();
            int envelopes = next.ack.envelopes();
            unacknowledgedEnvelopes -= envelopes;
            writer.unacknowledgedChanged(-envelopes);
            sink.next(next.ack.acknowledgedAt(writer.nanoTime()));
        }
    }

    /** Asks the writer for durability of the written batches, unless they already are (no flush for nothing). */
    private void askForDurability(long withinNanos) {
        Written newest = unacknowledged.peekLast();
        if (newest != null && newest.sequence > writer.durableSequence()) {
            writer.makeDurableWithin(withinNanos);
        }
    }

    private void armTimer(long now, long delayNanos) {
        long due = now + delayNanos;
        if (timer != null && timerDueNanos <= due) {
            return;
        }
        disposeTimer();
        timerDueNanos = due;
        timer = writer.scheduler().schedule(this::onTimer, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        drain();
    }

    private void disposeTimer() {
        if (timer != null) {
            timer.dispose();
            timer = null;
        }
    }

    private void finish() {
        terminated = true;
        disposeTimer();
        writer.sessionEnded(this);
        Throwable error = upstreamError;
        if (error != null) {
            sink.error(error);
        } else {
            sink.complete();
        }
    }

    private void terminate(Throwable cause) {
        terminated = true;
        disposeTimer();
        // written and never acknowledged: the data stays (a close flushes it), the acknowledgements are not sent
        writer.unacknowledgedChanged(-unacknowledgedEnvelopes);
        unacknowledged.clear();
        unacknowledgedEnvelopes = 0;
        Subscription subscription = upstream;
        if (subscription != null) {
            subscription.cancel();
        }
        if (held != null) {
            releaseAll(held);
            held = null;
        }
        releaseQueued();
        writer.sessionEnded(this);
        if (cause != null && !cancelled) {
            sink.error(cause);
        }
    }

    /** Releases whatever is queued; safe from any thread once the session has ended (each poll is one owner). */
    public void releaseQueued() {
        for (Envelope envelope; (envelope = queue.poll()) != null; ) {
            writer.pendingChanged(-1);
            release(envelope);
        }
    }

    private void releaseAll(List<Envelope> batch) {
        for (Envelope envelope : batch) {
            release(envelope);
        }
        writer.pendingChanged(-batch.size());
    }

    /** Releases an envelope an upstream operator dropped before it reached the archive. */
    public static void release(Envelope envelope) {
        try {
            envelope.release();
        } catch (RuntimeException e) {
            log.atWarn().addKeyValue("hash", String.valueOf(envelope.hash())).setCause(e)
                    .log("could not release an envelope: it was released too often elsewhere");
        }
    }
}
