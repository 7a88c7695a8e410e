package io.wakurelay.protocol;

import java.time.Duration;
import java.util.Objects;

/**
 * Size and time limits applied to every RPC and message.
 *
 * @param maxRpcSize     largest relay RPC accepted from a peer, without its length prefix (default 1 MiB)
 * @param maxMessageSize largest encoded WakuMessage accepted (default 153600 bytes, as the Waku network)
 * @param maxTopicBytes  longest pubsub topic in UTF-8 bytes (a peer's subscriptions hold up to {@code maxTopics} of them)
 * @param maxContentTopicBytes longest content topic in UTF-8 bytes: nwaku has no limit but the message's size; this
 *                       node's default takes the 1,000-byte topics nwaku's interop suite sends, and stays below what
 *                       nwaku's PostgreSQL schema can index (2,692 bytes, docs/archive.md), so that every message
 *                       relayed can be archived there
 * @param maxClockDrift  how far a message timestamp may be from the time it was received, either way, for the node's
 *                       archive to keep it (nwaku's archive window); relay, lightpush and publishing do not judge
 *                       timestamps, as nwaku. {@link Duration#ZERO} archives whatever the timestamp; a message without
 *                       one is always archived.
 */
public record ProtocolLimits(int maxRpcSize, int maxMessageSize, int maxTopicBytes, int maxContentTopicBytes,
                             Duration maxClockDrift) {

    public static final int DEFAULT_MAX_RPC_SIZE = 1 << 20;
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 153_600;
    public static final int DEFAULT_MAX_TOPIC_BYTES = 256;
    public static final int DEFAULT_MAX_CONTENT_TOPIC_BYTES = 2048;
    /** nwaku's MaxMessageTimestampVariance. */
    public static final Duration DEFAULT_MAX_CLOCK_DRIFT = Duration.ofSeconds(20);
    /** Room in an RPC for the framing around the largest message and its topic. */
    static final int RPC_OVERHEAD = 32;

    public static final ProtocolLimits DEFAULTS = new ProtocolLimits(
            DEFAULT_MAX_RPC_SIZE, DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MAX_TOPIC_BYTES, DEFAULT_MAX_CONTENT_TOPIC_BYTES,
            DEFAULT_MAX_CLOCK_DRIFT);

    public ProtocolLimits {
        Objects.requireNonNull(maxClockDrift, "maxClockDrift");
        if (maxMessageSize < 1) {
            throw new IllegalArgumentException("max message size must be positive, was " + maxMessageSize);
        }
        if (maxTopicBytes < 8) {
            throw new IllegalArgumentException("max topic length must be at least 8 bytes, was " + maxTopicBytes);
        }
        if (maxContentTopicBytes < 1) {
            throw new IllegalArgumentException("max content topic length must be positive, was " + maxContentTopicBytes);
        }
        long needed = (long) maxMessageSize + maxTopicBytes + RPC_OVERHEAD;
        if (maxRpcSize < needed) {
            throw new IllegalArgumentException("max RPC size " + maxRpcSize
                    + " cannot carry a message of the max message size " + maxMessageSize + " (needs at least " + needed + ")");
        }
        if (maxClockDrift.isNegative()) {
            throw new IllegalArgumentException("max clock drift must not be negative, was " + maxClockDrift);
        }
    }

    public ProtocolLimits withMaxMessageSize(int size) {
        int rpc = Math.max(maxRpcSize, size + maxTopicBytes + RPC_OVERHEAD);
        return new ProtocolLimits(rpc, size, maxTopicBytes, maxContentTopicBytes, maxClockDrift);
    }

    public ProtocolLimits withMaxClockDrift(Duration drift) {
        return new ProtocolLimits(maxRpcSize, maxMessageSize, maxTopicBytes, maxContentTopicBytes, drift);
    }

    public ProtocolLimits withMaxRpcSize(int size) {
        return new ProtocolLimits(size, maxMessageSize, maxTopicBytes, maxContentTopicBytes, maxClockDrift);
    }
}
