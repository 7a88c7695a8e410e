package io.wakurelay.loadgen;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.WireFormatException;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.PseudoPeer;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.Source;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.util.Objects;

/**
 * Feeds the bytes of an in-process pseudo-peer's relay stream into a node's receive path, as a peer's stream feeds it:
 * length-prefixed RPCs as a peer writes them, after decryption (chunks may cut RPCs anywhere), split without copying
 * and handed one at a time to the relay's {@link PseudoPeer}, on a thread of its own ({@value #THREAD}), paused by the
 * relay's hand-over when the node's archive falls behind, as a peer's stream is. So the micro scenario measures the
 * path a peer's messages take (message id, dedup, decode, validation, hash, forwarding, local delivery), from the
 * RPC on.
 */
final class RelayInjector implements AutoCloseable {
    /** The thread the RPCs go through the receive path on (Linux shows {@code relay-inject-N}). */
    static final String THREAD = "relay-inject";
    private static final int CHUNKS_AHEAD = 16;

    private final Relay relay;
    private final Scheduler thread = Schedulers.newSingle(THREAD, true);

    RelayInjector(Relay relay) {
        this.relay = Objects.requireNonNull(relay, "relay");
    }

    /**
     * Feeds {@code chunks} (their ownership passes here) through the receive path; completes when every chunk was
     * processed; a malformed length prefix errors with a {@link ProtocolViolation}.
     */
    Mono<Void> inject(Flux<ByteBuf> chunks) {
        Objects.requireNonNull(chunks, "chunks");
        return Mono.defer(() -> {
            InjectedStream injected = new InjectedStream(relay.config().limits().maxRpcSize());
            injected.peer = PseudoPeer.of(relay, injected);
            chunks.publishOn(thread, CHUNKS_AHEAD).subscribe(injected);
            return injected.done.asMono().doOnCancel(injected::cancel);
        });
    }

    @Override
    public void close() {
        thread.dispose();
    }

    /** One stream of chunks: one at a time, paused by the hand-over like a peer's stream. */
    private static final class InjectedStream extends BaseSubscriber<ByteBuf> implements Source {
        private final LengthPrefixedReader reader;
        private final Sinks.Empty<Void> done = Sinks.empty();
        private PseudoPeer peer;
        private volatile boolean paused;

        InjectedStream(int maxRpcSize) {
            reader = new LengthPrefixedReader(PooledByteBufAllocator.DEFAULT, maxRpcSize);
        }

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            request(1);
        }

        @Override
        protected void hookOnNext(ByteBuf chunk) {
            reader.add(chunk);
            try {
                ByteBuf rpc;
                while ((rpc = reader.next()) != null) {
                    try {
                        peer.receive(rpc);
                    } finally {
                        rpc.release();
                    }
                }
            } catch (WireFormatException e) {
                cancel();
                reader.close();
                done.tryEmitError(new ProtocolViolation(Violation.MALFORMED_RPC, e.getMessage()));
                return;
            }
            if (!paused) {
                request(1);
            }
        }

        @Override
        protected void hookOnComplete() {
            reader.close();
            done.tryEmitEmpty();
        }

        @Override
        protected void hookOnError(Throwable error) {
            reader.close();
            done.tryEmitError(error);
        }

        @Override
        protected void hookOnCancel() {
            reader.close();
        }

        @Override
        public void pause() {
            paused = true;
        }

        @Override
        public void resume() {
            if (paused) {
                paused = false;
                request(1);
            }
        }
    }
}
