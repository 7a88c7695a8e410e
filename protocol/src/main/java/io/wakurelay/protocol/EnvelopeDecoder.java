package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The receive path's one decode: turns the WakuMessage bytes of a received message into an {@link Envelope} by
 * reading them once (bytes fields aliased, never copied), validating them, and hashing them once.
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
     * @param message the WakuMessage bytes (its readable region), a view into {@code owner}
     * @param owner   the buffer {@code message} lives in; on success the envelope takes one new reference to it,
     *                on failure its reference count is unchanged
     * @throws ProtocolViolation when the message breaks a rule
     */
    public Envelope decode(String pubsubTopic, ByteBuf message, ByteBuf owner) {
        validator.checkMessageSize(message.readableBytes());
        counters.decoded();
        WakuMessageView view = WakuMessageView.read(message, message.readerIndex(), message.readableBytes());
        long now = validator.nowNanos();
        validator.checkMessage(view, now);
        MessageHash hash = hasher.hash(pubsubTopic, view);
        return new Envelope(pubsubTopic, view, message.slice(), hash, now, owner.retain());
    }
}
