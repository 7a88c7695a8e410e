package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.FrameCodec;
import io.wakurelay.protocol.InboundFrame;
import io.wakurelay.protocol.ProtocolViolation;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;

/**
 * An in-process pseudo-peer for {@link Relay#inject}: its frames take the receive path of a connection (parse,
 * decode, validate, hash, dedup, fan-out to every subscribed peer, local delivery), without a socket. It has no
 * handshake and no subscriptions, so its control frames are counted and otherwise ignored. A frame that breaks
 * framing fails the stream, as it would end a connection: like the frame decoder after a violation, the source
 * discards (releases) every later frame, and the stream ends with the violation when its frames run out.
 */
final class InjectedSource implements MessageSource {
    private final ReceivePath receivePath;
    private final RelayMetrics metrics;
    private ProtocolViolation failure;

    InjectedSource(ReceivePath receivePath, RelayMetrics metrics) {
        this.receivePath = receivePath;
        this.metrics = metrics;
    }

    /** Takes ownership of {@code frame} and releases it once processed. */
    void onFrame(ByteBuf frame, SynchronousSink<Envelope> sink) {
        try {
            if (failure != null) {
                return;
            }
            InboundFrame parsed = FrameCodec.parse(frame);
            if (parsed instanceof InboundFrame.Publish publish) {
                metrics.frameReceived(FrameKind.PUBLISH);
                Envelope envelope = receivePath.receive(frame, publish, this);
                if (envelope != null) {
                    sink.next(envelope);
                }
            } else if (parsed instanceof InboundFrame.Control control) {
                metrics.frameReceived(FrameKind.of(control.frame()));
            }
        } catch (ProtocolViolation e) {
            metrics.invalid(e.violation().label());
            if (e.violation().breaksFraming()) {
                failure = e;
            }
        } finally {
            frame.release();
        }
    }

    /** Ends the stream: with the framing violation met, if any. */
    Mono<Envelope> end() {
        return Mono.defer(() -> failure == null ? Mono.empty() : Mono.error(failure));
    }

    @Override
    public PeerSession peer() {
        return null;
    }

    @Override
    public void refused(String reason) {
        // counted by the invalid-message metric; there is no connection to close
    }
}
