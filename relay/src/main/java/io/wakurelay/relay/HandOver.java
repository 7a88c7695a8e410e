package io.wakurelay.relay;

import io.wakurelay.protocol.Envelope;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands accepted envelopes to the one local consumer ({@link Relay#accepted()}, the archive) with backpressure to
 * the peers. Producers (event loops, validation threads, the pseudo-peer's thread, publishers) add to a lock-free
 * queue and never wait; a drain loop serialised by a work counter (no spinning) emits only what the consumer
 * requested. When {@code capacity} envelopes wait, the {@link Source} that delivered the last one is paused (its
 * stream stops granting credit, so the peer's writer stops); every paused source resumes once the queue is down to
 * half. Nothing accepted is dropped: the queue exceeds {@code capacity} by at most what the paused sources had in
 * flight, and what verifications accept meanwhile.
 *
 * <p>A source is paused by the thread that offers (an event loop, or a validation thread whose verdict came after
 * the peer's stream moved on) and resumed by the thread that drains: each pause and resume is decided and told to
 * the source under one small lock, so that a source hears them in the order they were decided, and its last word is
 * the hand-over's (a pause told after a resume that was decided before it would leave the stream paused for good).
 */
final class HandOver {
    private final int capacity;
    private final Queue<Envelope> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger work = new AtomicInteger();
    private final Set<Source> paused = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final Sinks.Empty<Void> drained = Sinks.empty();
    private volatile FluxSink<Envelope> sink;
    private volatile boolean finished;
    private volatile boolean cancelled;
    private volatile boolean completed;

    HandOver(int capacity) {
        this.capacity = capacity;
    }

    /** The single-subscriber stream of accepted envelopes; each is the subscriber's to release. */
    Flux<Envelope> flux() {
        return Flux.create(s -> {
            if (!subscribed.compareAndSet(false, true)) {
                s.error(new IllegalStateException("the relay's accepted messages have one subscriber"));
                return;
            }
            s.onRequest(n -> drain());
            s.onCancel(() -> {
                cancelled = true;
                drain();
            });
            sink = s;
            drain();
        }, FluxSink.OverflowStrategy.BUFFER);
    }

    /** Hands over an envelope from a peer or an inject (taking its reference), pausing {@code source} when full. */
    void offer(Envelope envelope, Source source) {
        queue.add(envelope);
        int n = size.incrementAndGet();
        if (n >= capacity && source != null) {
            synchronized (paused) {
                if (paused.add(source)) {
                    source.pause();
                }
            }
            if (size.get() <= capacity / 2) {
                // the consumer caught up between the check and the pause
                resume(source);
            }
        }
        drain();
    }

    private void resume(Source source) {
        synchronized (paused) {
            if (paused.remove(source)) {
                source.resume();
            }
        }
    }

    /** Hands over a locally published envelope; false (not taken) when the consumer is too far behind. */
    boolean offerPublished(Envelope envelope) {
        if (size.get() >= capacity || finished) {
            return false;
        }
        offer(envelope, null);
        return true;
    }

    int pending() {
        return size.get();
    }

    /** No more envelopes will come: {@link #flux()} completes once the queue is drained. */
    void finish() {
        finished = true;
        drain();
    }

    /** Completes when finished and drained (or cancelled). */
    Mono<Void> drained() {
        return drained.asMono();
    }

    /** Gives up on what waits (shutdown grace over): released, and the stream completes. */
    void abort() {
        cancelled = true;
        finished = true;
        drain();
    }

    private void drain() {
        if (work.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            FluxSink<Envelope> s = sink;
            if (cancelled || completed) {
                // an envelope offered after the stream completed (one that arrived during shutdown) is released
                releaseAll();
            } else if (s != null) {
                while (s.requestedFromDownstream() > 0) {
                    Envelope next = queue.poll();
                    if (next == null) {
                        break;
                    }
                    size.decrementAndGet();
                    s.next(next);
                }
                if (finished && queue.isEmpty()) {
                    completed = true;
                    s.complete();
                    drained.tryEmitEmpty();
                }
            }
            if (size.get() <= capacity / 2 && !paused.isEmpty()) {
                for (Source source : paused) {
                    resume(source);
                }
            }
            missed = work.addAndGet(-missed);
        } while (missed != 0);
    }

    private void releaseAll() {
        Envelope e;
        while ((e = queue.poll()) != null) {
            size.decrementAndGet();
            e.release();
        }
        FluxSink<Envelope> s = sink;
        if (s != null && finished) {
            s.complete();
        }
        if (finished) {
            drained.tryEmitEmpty();
        }
    }
}
