package io.wakurelay.p2p.limits;

import java.time.Duration;

/**
 * The project's one token bucket: at most {@code depth} tokens, full at first, one taken per request (or packet); it
 * refills in one of two ways:
 * <ul>
 *   <li>evenly, {@code perSecond} tokens a second ({@link #TokenBucket(double, double, long)}): a burst of
 *       {@code depth}, then the rate (discv5's budgets);</li>
 *   <li>by whole periods, as nwaku's {@code TokenBucket} in {@code waku/common/rate_limit/token_bucket.nim}
 *       ({@link #perPeriod}): {@code volume} tokens per period, all of them back once a period has passed since it
 *       began; a period begins with the first token taken from a full bucket (nwaku's per-peer request limits: its
 *       30th subscribe call in a minute passes, the 31st does not, however the 30 were spread).</li>
 * </ul>
 * A bucket left alone for {@link #fullAfterNanos()} is full again, so its owner may forget it and start a new one
 * when its key comes back ({@link TokenBuckets}). The caller gives the time, so that tests need no clock. Not
 * thread-safe: its owner guards it ({@link TokenBuckets}, or one event loop).
 */
public final class TokenBucket {
    private final double depth;
    /** Tokens per nanosecond of an even refill; 0 for a bucket refilled by whole periods. */
    private final double perNano;
    /** The period of a bucket refilled whole; 0 for an even refill. */
    private final long periodNanos;
    private double tokens;
    /** The last refill (even), or when the current period began (whole periods). */
    private long since;
    private long lastUsed;

    /** A bucket refilled evenly: {@code perSecond} tokens a second, at most {@code depth} held. */
    public TokenBucket(double perSecond, double depth, long nowNanos) {
        this(depth, perSecond / 1e9, 0, nowNanos);
        if (!(perSecond > 0) || !(depth >= 1)) {
            throw new IllegalArgumentException("a token bucket needs a positive rate and a depth of at least 1, was "
                    + perSecond + "/s and " + depth);
        }
    }

    private TokenBucket(double depth, double perNano, long periodNanos, long nowNanos) {
        this.depth = depth;
        this.perNano = perNano;
        this.periodNanos = periodNanos;
        this.tokens = depth;
        this.since = nowNanos;
        this.lastUsed = nowNanos;
    }

    /** A bucket refilled by whole periods, as nwaku's: {@code volume} tokens per {@code period}. */
    public static TokenBucket perPeriod(int volume, Duration period, long nowNanos) {
        checkPeriod(volume, period);
        return new TokenBucket(volume, 0, period.toNanos(), nowNanos);
    }

    static void checkPeriod(int volume, Duration period) {
        if (volume < 1 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("a token bucket needs a volume of at least 1 and a positive period, was "
                    + volume + " per " + period);
        }
    }

    /** Takes one token when there is one; @return whether it did */
    public boolean tryTake(long nowNanos) {
        lastUsed = nowNanos;
        if (periodNanos > 0) {
            if (tokens >= depth) {
                since = nowNanos; // a full bucket's period begins with this request
            } else if (nowNanos - since >= periodNanos) {
                tokens = depth;
                since = nowNanos;
            }
        } else if (nowNanos > since) {
            tokens = Math.min(depth, tokens + (nowNanos - since) * perNano);
            since = nowNanos;
        }
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    /** How long a bucket must be left alone to be full again, whatever it held. */
    public long fullAfterNanos() {
        return periodNanos > 0 ? periodNanos : (long) Math.ceil(depth / perNano);
    }

    /** Whether the bucket has been left alone long enough to be full again (and so may be forgotten). */
    boolean isFullAgain(long nowNanos) {
        return nowNanos - lastUsed >= fullAfterNanos();
    }
}
