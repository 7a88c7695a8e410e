package io.wakurelay.loadgen;

import io.netty.buffer.ByteBuf;
import io.wakurelay.node.WakuNode;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.time.Duration;

/**
 * Hands pre-encoded frames to a node's receive path ({@link RelayInjector}), as a peer would send them: the node
 * decodes, validates, hashes, deduplicates and relays each one. Frames are sent from one thread; a {@link Window} bounds how many
 * are in flight, which also bounds this feeder's queue.
 */
final class FrameFeeder implements FrameSink {
    private final Sinks.Many<ByteBuf> frames = Sinks.many().unicast().onBackpressureBuffer();
    private final RelayInjector injector;
    private final Mono<Void> done;

    FrameFeeder(WakuNode node) {
        injector = new RelayInjector(node.relay());
        done = injector.inject(frames.asFlux()).cache();
        done.subscribe(x -> { }, e -> { });
    }

    @Override
    public void send(ByteBuf frame) {
        Sinks.EmitResult result = frames.tryEmitNext(frame);
        if (result.isFailure()) {
            frame.release();
            throw new IllegalStateException("the node stopped taking frames: " + result);
        }
    }

    @Override
    public void close() {
        frames.tryEmitComplete();
        try {
            done.onErrorResume(e -> Mono.empty()).block(Duration.ofSeconds(30));
        } finally {
            injector.close();
        }
    }
}
