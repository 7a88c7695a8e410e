package io.wakurelay.protocol;

import io.wakurelay.protocol.proto.WakuMessage;

import java.util.function.LongSupplier;

/** The validation rules every message passes before it is hashed, relayed or archived. */
public final class MessageValidator {
    /** The 14/WAKU2-MESSAGE limit on meta. */
    public static final int MAX_META_BYTES = 64;

    private final ProtocolLimits limits;
    private final LongSupplier clockNanos;

    /**
     * @param clockNanos the receiver's wall clock in Unix nanoseconds (a parameter so tests can fix it)
     */
    public MessageValidator(ProtocolLimits limits, LongSupplier clockNanos) {
        this.limits = limits;
        this.clockNanos = clockNanos;
    }

    public ProtocolLimits limits() {
        return limits;
    }

    public long nowNanos() {
        return clockNanos.getAsLong();
    }

    public void checkPubsubTopic(String pubsubTopic) {
        Topics.checkPubsubTopic(pubsubTopic, limits.maxTopicBytes());
    }

    public void checkMessageSize(int encodedSize) {
        if (encodedSize > limits.maxMessageSize()) {
            throw new ProtocolViolation(Violation.MESSAGE_TOO_LARGE,
                    "message is " + encodedSize + " bytes, the maximum is " + limits.maxMessageSize());
        }
    }

    /**
     * Checks the decoded fields: content topic and meta size. The timestamp is not judged here: nwaku relays a message
     * whatever its timestamp, and only its archive skips one far from its clock (the node's archive does the same with
     * {@link ProtocolLimits#maxClockDrift()}), so an honest peer forwarding it is never refused nor penalised.
     */
    public void checkMessage(WakuMessageView message, long nowNanos) {
        checkFields(message.contentTopic(), message.metaSize(), message.timestamp(), nowNanos);
    }

    /** The same rules for a message built in memory (publishing). */
    public void checkMessage(WakuMessage message, long nowNanos) {
        checkFields(message.getContentTopic(), message.getMeta().size(), message.getTimestamp(), nowNanos);
    }

    private void checkFields(String contentTopic, int metaSize, long timestamp, long nowNanos) {
        Topics.checkContentTopic(contentTopic, limits.maxContentTopicBytes());
        if (metaSize > MAX_META_BYTES) {
            throw new ProtocolViolation(Violation.META_TOO_LARGE,
                    // nwaku's words for it (its REST clients and interop suite look for them), then ours
                    "invalid length for Meta field: meta is " + metaSize + " bytes, the maximum is " + MAX_META_BYTES);
        }
    }
}
