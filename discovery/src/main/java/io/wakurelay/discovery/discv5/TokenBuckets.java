package io.wakurelay.discovery.discv5;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link TokenBucket} per key ({@code perSecond}, {@code depth}), for at most {@code capacity} keys: the least
 * recently seen key is forgotten first, and starts again with a full bucket when it comes back (which gives a flooder
 * nothing it could not have by using more keys; a bound of all keys together is a bucket of its own). The key says
 * what shares a budget: discv5 keys its packets by {@link SourcePrefix}, an address or an IPv6 /64, never by port.
 * Thread-safe (one lock, uncontended on an event loop), so that the services' per-peer request limits can become this
 * class (issue 42); the caller gives the time, so that tests need no clock.
 *
 * @param <K> what a budget belongs to (a value with {@code equals} and {@code hashCode})
 */
final class TokenBuckets<K> {
    private final double perSecond;
    private final double depth;
    private final int capacity;
    private final Map<K, TokenBucket> buckets;

    TokenBuckets(double perSecond, double depth, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("token buckets need room for one key, capacity " + capacity);
        }
        new TokenBucket(perSecond, depth, 0); // checks the rate and depth once
        this.perSecond = perSecond;
        this.depth = depth;
        this.capacity = capacity;
        this.buckets = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, TokenBucket> eldest) {
                return size() > TokenBuckets.this.capacity;
            }
        };
    }

    /** Takes a token of {@code key}'s bucket (made full on first sight); @return whether there was one */
    synchronized boolean tryAcquire(K key, long nowNanos) {
        TokenBucket bucket = buckets.get(key);
        if (bucket == null) {
            bucket = new TokenBucket(perSecond, depth, nowNanos);
            buckets.put(key, bucket);
        }
        return bucket.tryTake(nowNanos);
    }

    /** Keys with a bucket now (at most the capacity). */
    synchronized int size() {
        return buckets.size();
    }
}
