package io.wakurelay.services;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One {@link RateLimit} token bucket per peer. A bucket that has been idle for a whole period is full again, so it
 * is forgotten then: the map holds only the peers active in the last period (swept at most once per period).
 * Thread-safe.
 */
final class PeerRateLimiter {
    private final RateLimit limit;
    private final LongSupplier nanoClock;
    private final long periodNanos;
    private final Map<PeerId, Bucket> buckets = new ConcurrentHashMap<>();
    private volatile long lastSweep;

    PeerRateLimiter(RateLimit limit, LongSupplier nanoClock) {
        this.limit = limit;
        this.nanoClock = nanoClock;
        this.periodNanos = limit.period().toNanos();
        this.lastSweep = nanoClock.getAsLong();
    }

    /** True when {@code peer} may make one more request now (and it is counted). */
    boolean tryAcquire(PeerId peer) {
        if (limit.isUnlimited()) {
            return true;
        }
        long now = nanoClock.getAsLong();
        if (now - lastSweep > periodNanos) {
            lastSweep = now;
            buckets.values().removeIf(b -> b.idleSince(now) > periodNanos);
        }
        return buckets.computeIfAbsent(peer, p -> new Bucket(limit.volume(), now)).tryTake(now, limit.volume(), periodNanos);
    }

    /** Peers with a bucket (tests). */
    int trackedPeers() {
        return buckets.size();
    }

    private static final class Bucket {
        private double tokens;
        private long updated;

        Bucket(int volume, long now) {
            this.tokens = volume;
            this.updated = now;
        }

        synchronized boolean tryTake(long now, int volume, long periodNanos) {
            tokens = Math.min(volume, tokens + (double) (now - updated) * volume / periodNanos);
            updated = now;
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
            return false;
        }

        synchronized long idleSince(long now) {
            return now - updated;
        }
    }
}
