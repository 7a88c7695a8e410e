package io.wakurelay.services;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.limits.TokenBuckets;

import java.util.function.LongSupplier;

/**
 * A service's {@link RateLimit} per peer, on the project's one token bucket ({@link TokenBuckets}) refilled as nwaku's
 * per-peer limits are: the volume in a period, whole, then nothing until the period (begun by the first request)
 * has passed. A peer whose bucket is full again is forgotten, and at most {@link #MAX_PEERS} are kept (the least
 * recently seen goes first, and comes back with a full bucket). Thread-safe.
 */
public final class PeerRateLimiter {
    /** Peers whose budgets are kept at once: more than a node keeps connections to. */
    public static final int MAX_PEERS = 16_384;

    private final TokenBuckets<PeerId> buckets;
    private final LongSupplier nanoClock;

    /** @param nanoClock the time in nanoseconds ({@code System::nanoTime}; a test's own clock) */
    public PeerRateLimiter(RateLimit limit, LongSupplier nanoClock) {
        this.buckets = limit.isUnlimited() ? null : TokenBuckets.perPeriod(limit.volume(), limit.period(), MAX_PEERS);
        this.nanoClock = nanoClock;
    }

    /** True when {@code peer} may make one more request now (and it is counted). */
    boolean tryAcquire(PeerId peer) {
        return buckets == null || buckets.tryAcquire(peer, nanoClock.getAsLong());
    }

    /** Peers with a bucket (tests). */
    int trackedPeers() {
        return buckets == null ? 0 : buckets.size();
    }
}
