package io.wakurelay.relay;

import java.util.function.LongSupplier;

/**
 * One connection's allowance under {@link RateLimits}: a bucket per limit that is set, none for those that are
 * not. Used on the connection's event loop only.
 */
final class PeerRateLimiter {
    /** The {@code kind} tags of {@code waku_relay_rate_limited_total}. */
    static final String PUBLISH_MESSAGES = "publish_messages";
    static final String PUBLISH_BYTES = "publish_bytes";
    static final String CONTROL = "control";

    private final TokenBucket publishMessages;
    private final TokenBucket publishBytes;
    private final TokenBucket controlFrames;

    PeerRateLimiter(RateLimits limits, LongSupplier nanoClock) {
        this.publishMessages = bucket(limits.publishMessagesPerSecond(), nanoClock);
        this.publishBytes = bucket(limits.publishBytesPerSecond(), nanoClock);
        this.controlFrames = bucket(limits.controlFramesPerSecond(), nanoClock);
    }

    private static TokenBucket bucket(long perSecond, LongSupplier nanoClock) {
        return perSecond == RateLimits.UNLIMITED ? null : new TokenBucket(perSecond, nanoClock);
    }

    boolean limitsPublish() {
        return publishMessages != null || publishBytes != null;
    }

    /** A Publish frame of {@code bytes} (prefix included) was read: its cost is spent, possibly into debt. */
    void publishRead(int bytes) {
        if (publishMessages != null) {
            publishMessages.spend(1);
        }
        if (publishBytes != null) {
            publishBytes.spend(bytes);
        }
    }

    /** How long reading the next frame must wait for the Publish allowance; 0 = read now. */
    long publishPauseNanos() {
        return Math.max(pause(publishMessages), pause(publishBytes));
    }

    /** Which limit {@link #publishPauseNanos()} waits for (the {@code kind} tag). */
    String publishPausedBy() {
        return pause(publishBytes) > pause(publishMessages) ? PUBLISH_BYTES : PUBLISH_MESSAGES;
    }

    /** A control frame arrived: false when it is one too many for the second. */
    boolean controlFrameAllowed() {
        return controlFrames == null || controlFrames.tryTake();
    }

    private static long pause(TokenBucket bucket) {
        return bucket == null ? 0 : bucket.nanosUntilOutOfDebt();
    }
}
