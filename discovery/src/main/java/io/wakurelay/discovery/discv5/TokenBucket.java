package io.wakurelay.discovery.discv5;

/**
 * One token bucket: {@code perSecond} tokens a second, at most {@code depth} held (it starts full, so a burst of
 * {@code depth} passes, then the rate). Not thread-safe: its owner guards it ({@link TokenBuckets}, or one event loop).
 */
final class TokenBucket {
    private final double perNano;
    private final double depth;
    private double tokens;
    private long lastNanos;

    TokenBucket(double perSecond, double depth, long nowNanos) {
        if (!(perSecond > 0) || !(depth >= 1)) {
            throw new IllegalArgumentException("a token bucket needs a positive rate and a depth of at least 1, was "
                    + perSecond + "/s and " + depth);
        }
        this.perNano = perSecond / 1e9;
        this.depth = depth;
        this.tokens = depth;
        this.lastNanos = nowNanos;
    }

    /** Takes one token when there is one; @return whether it did */
    boolean tryTake(long nowNanos) {
        if (nowNanos > lastNanos) {
            tokens = Math.min(depth, tokens + (nowNanos - lastNanos) * perNano);
            lastNanos = nowNanos;
        }
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }
}
