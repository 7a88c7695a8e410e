package io.wakurelay.relay;

import java.util.function.LongSupplier;

/**
 * A token bucket that holds one second's worth of tokens and refills continuously at its rate. Not thread-safe:
 * each belongs to one connection and is used on its event loop.
 *
 * <p>Two ways to spend: {@link #tryTake()} takes one token only if there is one (a frame is allowed or refused);
 * {@link #spend(long)} takes what a frame cost even past zero, leaving a debt that {@link #nanosUntilOutOfDebt()}
 * says how long to wait out. The second is for costs known only after the frame was read (its size): reading
 * the next frame waits until the debt is paid, so over time the rate holds exactly, while a single frame larger
 * than the bucket still gets through.
 */
final class TokenBucket {
    private static final double NANOS_PER_SECOND = 1e9;
    /** Rounding slack: a debt this small is paid (or a wait computed to the nanosecond could come out one short). */
    private static final double EPSILON = 1e-6;

    private final double capacity;
    private final double tokensPerNano;
    private final LongSupplier nanoClock;
    private double tokens;
    private long refilledAt;

    TokenBucket(long perSecond, LongSupplier nanoClock) {
        if (perSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive, was " + perSecond);
        }
        this.capacity = perSecond;
        this.tokensPerNano = perSecond / NANOS_PER_SECOND;
        this.nanoClock = nanoClock;
        this.tokens = capacity;
        this.refilledAt = nanoClock.getAsLong();
    }

    /** Takes one token if there is one. */
    boolean tryTake() {
        refill();
        if (tokens >= 1 - EPSILON) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** Takes {@code cost} tokens, going into debt if there are not enough. */
    void spend(long cost) {
        refill();
        tokens -= cost;
    }

    /** 0 when the bucket is not in debt, else how long until it is not. */
    long nanosUntilOutOfDebt() {
        refill();
        return tokens >= -EPSILON ? 0 : (long) Math.ceil(-tokens / tokensPerNano);
    }

    private void refill() {
        long now = nanoClock.getAsLong();
        long elapsed = now - refilledAt;
        if (elapsed > 0) {
            tokens = Math.min(capacity, tokens + elapsed * tokensPerNano);
            refilledAt = now;
        }
    }
}
