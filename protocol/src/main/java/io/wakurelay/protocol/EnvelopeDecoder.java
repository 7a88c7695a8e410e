package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The receive path's one decode: turns a received Publish frame into an {@link Envelope} by reading the
 * WakuMessage once (bytes fields aliased into the frame), validating it, and hashing it once.
 */
public final class EnvelopeDecoder {
    private final MessageValidator validator;
    private final MessageHasher hasher;
    private final PathCounters counters;

    public EnvelopeDecoder(MessageValidator validator, PathCounters counters) {
        this.validator = validator;
        this.hasher = new MessageHasher(counters);
        this.counters = counters;
    }

    public MessageValidator validator() {
        return validator;
    }

    /**
     * @param frame   the whole wire frame {@code publish} was parsed from; on success the envelope takes one
     *                new reference to it, on failure its reference count is unchanged
     * @throws ProtocolViolation when the message breaks a rule
     */
    public Envelope decode(ByteBuf frame, InboundFrame.Publish publish) {
        String pubsubTopic = publish.pubsubTopic();
        validator.checkPubsubTopic(pubsubTopic);
        validator.checkMessageSize(publish.messageLength());
        counters.decoded();
        WakuMessageView message = WakuMessageView.read(frame, publish.messageIndex(), publish.messageLength());
        long now = validator.nowNanos();
        validator.checkMessage(message, now);
        MessageHash hash = hasher.hash(pubsubTopic, message);
        ByteBuf messageBytes = frame.slice(publish.messageIndex(), publish.messageLength());
        return new Envelope(pubsubTopic, message, messageBytes, hash, now, frame.retain());
    }

    /**
     * Parses and decodes a frame that must be a Publish (tools and tests).
     *
     * @throws ProtocolViolation when it is not a valid Publish frame
     */
    public Envelope decode(ByteBuf frame) {
        if (FrameCodec.parse(frame) instanceof InboundFrame.Publish publish) {
            return decode(frame, publish);
        }
        throw new ProtocolViolation(Violation.MALFORMED_FRAME, "expected a Publish frame");
    }
}
