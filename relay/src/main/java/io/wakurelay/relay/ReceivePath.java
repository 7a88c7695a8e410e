package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.InboundFrame;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;

/**
 * The receive path of a Publish frame, shared by every connection and by {@code inject}: subscription check,
 * one decode with validation, one hash, seen-cache dedup, fan-out of the original frame bytes, and the envelope
 * for local delivery. Runs synchronously on the calling (event loop) thread.
 */
final class ReceivePath {
    private final EnvelopeDecoder decoder;
    private final SeenCache seen;
    private final LocalSubscriptions subscriptions;
    private final PeerRegistry peers;
    private final RelayMetrics metrics;
    private final int maxTopicBytes;

    ReceivePath(EnvelopeDecoder decoder, SeenCache seen, LocalSubscriptions subscriptions, PeerRegistry peers,
                RelayMetrics metrics) {
        this.decoder = decoder;
        this.seen = seen;
        this.subscriptions = subscriptions;
        this.peers = peers;
        this.metrics = metrics;
        this.maxTopicBytes = decoder.validator().limits().maxTopicBytes();
    }

    /**
     * @param frame the whole frame (prefix included); its reference count is left as it was, the envelope takes
     *              its own reference
     * @return the accepted envelope, owning one reference, for local delivery; null when the message was a
     * duplicate or refused (both counted)
     */
    Envelope receive(ByteBuf frame, InboundFrame.Publish publish, MessageSource source) {
        metrics.receivedFromPeers.increment();
        String topic = publish.pubsubTopic();
        if (!subscriptions.contains(topic)) {
            // the cheap check first: a topic we do not relay costs no decode
            refuse(source, isValidTopic(topic) ? RelayMetrics.NOT_SUBSCRIBED : "invalid_pubsub_topic");
            return null;
        }
        Envelope envelope;
        try {
            envelope = decoder.decode(frame, publish);
        } catch (ProtocolViolation e) {
            refuse(source, e.violation().label());
            return null;
        }
        if (!seen.markSeen(envelope.hash())) {
            metrics.duplicates.increment();
            envelope.release();
            return null;
        }
        metrics.accepted.increment();
        metrics.propagated(envelope);
        peers.fanOut(envelope, source.peer());
        return envelope;
    }

    private boolean isValidTopic(String topic) {
        try {
            Topics.checkPubsubTopic(topic, maxTopicBytes);
            return true;
        } catch (ProtocolViolation e) {
            return false;
        }
    }

    private void refuse(MessageSource source, String reason) {
        metrics.invalid(reason);
        source.refused(reason);
    }
}
