package io.wakurelay.p2p.limits;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * A {@link TokenBucket} per key, for at most {@code capacity} keys: the least recently seen key is forgotten first, and
 * starts again with a full bucket when it comes back (which gives a flooder nothing it could not have by using more
 * keys; a bound of all keys together is a bucket of its own). A bucket left alone until it is full again is forgotten
 * too (looked for at most once per refill time, from the least recently seen), which changes nothing but the memory
 * it took. The key says what shares a budget: discv5 keys its packets by source address, the Waku services their
 * requests by peer id. Thread-safe (one lock, uncontended on an event loop); the caller gives the time, so that tests
 * need no clock.
 *
 * @param <K> what a budget belongs to (a value with {@code equals} and {@code hashCode})
 */
public final class TokenBuckets<K> {
    private final int capacity;
    private final LongFunction<TokenBucket> newBucket;
    private final long fullAfterNanos;
    private final Map<K, TokenBucket> buckets;
    private long lastSweep;

    /** Buckets refilled evenly: {@code perSecond} tokens a second each, at most {@code depth} held. */
    public TokenBuckets(double perSecond, double depth, int capacity) {
        this(capacity, now -> new TokenBucket(perSecond, depth, now));
    }

    private TokenBuckets(int capacity, LongFunction<TokenBucket> newBucket) {
        if (capacity < 1) {
            throw new IllegalArgumentException("token buckets need room for one key, capacity " + capacity);
        }
        this.capacity = capacity;
        this.newBucket = newBucket;
        this.fullAfterNanos = newBucket.apply(0).fullAfterNanos(); // checks the rate and depth once
        this.buckets = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, TokenBucket> eldest) {
                return size() > TokenBuckets.this.capacity;
            }
        };
    }

    /** Buckets refilled by whole periods, as nwaku's per-peer limits: {@code volume} tokens per {@code period} each. */
    public static <K> TokenBuckets<K> perPeriod(int volume, Duration period, int capacity) {
        TokenBucket.checkPeriod(volume, period);
        return new TokenBuckets<>(capacity, now -> TokenBucket.perPeriod(volume, period, now));
    }

    /** Takes a token of {@code key}'s bucket (made full on first sight); @return whether there was one */
    public synchronized boolean tryAcquire(K key, long nowNanos) {
        if (nowNanos - lastSweep >= fullAfterNanos) {
            lastSweep = nowNanos;
            forgetFullAgain(nowNanos);
        }
        TokenBucket bucket = buckets.get(key);
        if (bucket == null) {
            bucket = newBucket.apply(nowNanos);
            buckets.put(key, bucket);
        }
        return bucket.tryTake(nowNanos);
    }

    private void forgetFullAgain(long nowNanos) {
        Iterator<TokenBucket> oldestFirst = buckets.values().iterator();
        while (oldestFirst.hasNext() && oldestFirst.next().isFullAgain(nowNanos)) {
            oldestFirst.remove();
        }
    }

    /** Keys with a bucket now (at most the capacity). */
    public synchronized int size() {
        return buckets.size();
    }
}
