package io.wakurelay.relay;

import io.wakurelay.protocol.Envelope;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Hands accepted envelopes to the one local consumer of {@link Relay#accepted()}, with backpressure all the
 * way to the peers' sockets.
 *
 * <p>Every source of envelopes (each connection's receive flux, each {@code inject} stream, local publishes) is
 * merged by {@code flatMap} with a prefetch of one. The merge is subscribed by a bridge that requests exactly as
 * many envelopes as the hand-over queue has room for ({@code localQueueMessages}) and one more each time the
 * consumer takes one. When the consumer stops requesting, the queue fills, the bridge stops requesting, the
 * merge stops requesting from each source, and Reactor Netty turns auto-read off on each connection: TCP
 * backpressure, nothing dropped. The bridge is subscribed at start, so peers are read (handshakes included)
 * before the consumer subscribes, up to the same bound. See ADR 0020.
 *
 * <p>Envelopes held anywhere in this chain are released if the chain is cancelled (discard hooks), and counted
 * by {@link #pending()}, bounded by {@code localQueueMessages} plus one per source.
 */
final class LocalDelivery {
    /** Envelopes each source may have handed over beyond the hand-over queue. */
    static final int SOURCE_PREFETCH = 1;

    private final int capacity;
    private final AtomicLong pending = new AtomicLong();
    private final Sinks.Many<Flux<Envelope>> sources = Sinks.many().unicast().onBackpressureBuffer();
    private final Sinks.Many<Envelope> published;
    private final Sinks.Many<Envelope> handOver;
    private final Sinks.Empty<Void> drained = Sinks.empty();
    private final Bridge bridge = new Bridge();
    private final Flux<Envelope> accepted;

    LocalDelivery(int capacity) {
        this.capacity = capacity;
        this.published = Sinks.many().unicast().onBackpressureBuffer(new ArrayBlockingQueue<>(capacity));
        this.handOver = Sinks.many().unicast().onBackpressureBuffer(new ArrayBlockingQueue<>(capacity));
        this.accepted = handOver.asFlux().doOnNext(this::taken).doOnDiscard(Envelope.class, this::discard);
        sources.asFlux()
                .flatMap(source -> source, Integer.MAX_VALUE, SOURCE_PREFETCH)
                .doOnDiscard(Envelope.class, this::discard)
                .subscribe(bridge);
        emit(sources, published.asFlux());
    }

    /** The single-subscriber stream of accepted envelopes; each is the subscriber's to release. */
    Flux<Envelope> accepted() {
        return accepted;
    }

    /**
     * Adds a source of envelopes (each owning one reference that passes to the consumer).
     *
     * @return false when delivery has finished (shutdown): the source was not subscribed
     */
    boolean add(Flux<Envelope> source) {
        return emit(sources, source.doOnNext(e -> pending.incrementAndGet()));
    }

    /**
     * Hands over a locally published envelope.
     *
     * @return false when the consumer is too far behind or delivery has finished; the envelope was not taken
     */
    boolean offerPublished(Envelope envelope) {
        if (pending.get() >= capacity) {
            return false;
        }
        pending.incrementAndGet();
        if (emit(published, envelope)) {
            return true;
        }
        pending.decrementAndGet();
        return false;
    }

    /** Envelopes handed over and not yet taken by the consumer. */
    long pending() {
        return pending.get();
    }

    Supplier<Number> pendingGauge() {
        return pending::get;
    }

    /** No more sources: completes {@link #accepted()} once the open ones complete and their envelopes were taken. */
    void finish() {
        complete(published);
        complete(sources);
    }

    /** Completes when every source completed and the last envelope reached the hand-over queue, or on {@link #abort()}. */
    Mono<Void> drained() {
        return drained.asMono();
    }

    /**
     * Cancels every source and releases what they had handed over but the hand-over queue did not take. What the
     * queue holds stays for the consumer, which gets it and then completion (or releases it by cancelling).
     */
    void abort() {
        bridge.dispose();
        complete(handOver);
        drained.tryEmitEmpty();
    }

    /**
     * After shutdown: if nobody ever subscribed to {@link #accepted()}, nobody will take what the hand-over queue
     * holds, so it is released here (by subscribing in the consumer's place).
     */
    void releaseIfNeverSubscribed() {
        if (handOver.currentSubscriberCount() == 0) {
            accepted.subscribe(Envelope::release, error -> { });
        }
    }

    private void taken(Envelope envelope) {
        pending.decrementAndGet();
        bridge.request(1);
    }

    private void discard(Envelope envelope) {
        pending.decrementAndGet();
        envelope.release();
    }

    /** Emits from any thread: concurrent emitters retry for the moment another one is inside the sink. */
    private static <T> boolean emit(Sinks.Many<T> sink, T value) {
        while (true) {
            Sinks.EmitResult result = sink.tryEmitNext(value);
            if (result == Sinks.EmitResult.FAIL_NON_SERIALIZED) {
                Thread.onSpinWait();
            } else {
                return result.isSuccess();
            }
        }
    }

    private static void complete(Sinks.Many<?> sink) {
        while (sink.tryEmitComplete() == Sinks.EmitResult.FAIL_NON_SERIALIZED) {
            Thread.onSpinWait();
        }
    }

    /** Requests from the merge only what the hand-over queue has room for. */
    private final class Bridge extends BaseSubscriber<Envelope> {
        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            subscription.request(capacity);
        }

        @Override
        protected void hookOnNext(Envelope envelope) {
            if (handOver.tryEmitNext(envelope).isFailure()) {
                // the consumer cancelled: release, and keep the peers flowing
                discard(envelope);
                request(1);
            }
        }

        @Override
        protected void hookOnComplete() {
            complete(handOver);
            drained.tryEmitEmpty();
        }

        @Override
        protected void hookOnError(Throwable error) {
            // sources end their own errors; reaching here is a bug, and the consumer must hear of it
            handOver.tryEmitError(error);
            drained.tryEmitEmpty();
        }
    }
}
