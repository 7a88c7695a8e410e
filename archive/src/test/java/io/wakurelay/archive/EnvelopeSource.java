package io.wakurelay.archive;

import io.wakurelay.protocol.Envelope;
import reactor.core.publisher.Flux;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;

/**
 * An endless stream of distinct envelopes, made only when requested, that remembers what it emitted and how
 * much was requested: the test's view of the relay.
 */
public final class EnvelopeSource {
    public final List<Envelope> emitted = new CopyOnWriteArrayList<>();
    public final AtomicLong requested = new AtomicLong();
    private final int payloadSize;
    private final int firstIndex;
    private final IntToLongFunction timestampOf;

    public EnvelopeSource(int payloadSize) {
        this(payloadSize, 0, index -> TestEnvelopes.BASE_TIME + index);
    }

    /** Envelopes {@code firstIndex, firstIndex + 1, ...}, the n-th with timestamp {@code timestampOf(n)}. */
    public EnvelopeSource(int payloadSize, int firstIndex, IntToLongFunction timestampOf) {
        this.payloadSize = payloadSize;
        this.firstIndex = firstIndex;
        this.timestampOf = timestampOf;
    }

    public Flux<Envelope> flux() {
        return Flux.<Envelope, Integer>generate(() -> 0, (index, sink) -> {
                    Envelope envelope = TestEnvelopes.envelope(TestEnvelopes.PUBSUB, TestEnvelopes.CONTENT, firstIndex + index,
                            payloadSize, timestampOf.applyAsLong(index));
                    emitted.add(envelope);
                    sink.next(envelope);
                    return index + 1;
                })
                .doOnRequest(n -> requested.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b));
    }

    public boolean allReleased() {
        return emitted.stream().allMatch(e -> e.refCnt() == 0);
    }
}
