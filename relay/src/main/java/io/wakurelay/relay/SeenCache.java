package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The hashes of recently accepted messages, for dedup: bounded by count and by age (first sight). A hash is
 * forgotten when it is older than the TTL or, when the cache is full, when it is the oldest entry.
 *
 * <p>Entries are kept in insertion order, which is also age order, so expiry only ever looks at the head.
 * Calls come from every event loop and from publishers; the critical sections are a few map operations.
 */
final class SeenCache {
    private final int capacity;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final LinkedHashMap<MessageHash, Long> firstSeen = new LinkedHashMap<>();
    private long evictedBeforeExpiry;

    SeenCache(int capacity, Duration ttl, LongSupplier nanoTime) {
        if (capacity < 1) {
            throw new IllegalArgumentException("seen cache capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Records {@code hash}; returns false when it was already there (a duplicate). */
    synchronized boolean markSeen(MessageHash hash) {
        long now = nanoTime.getAsLong();
        expire(now);
        if (firstSeen.putIfAbsent(hash, now) != null) {
            return false;
        }
        if (firstSeen.size() > capacity) {
            Iterator<Map.Entry<MessageHash, Long>> oldest = firstSeen.entrySet().iterator();
            oldest.next();
            oldest.remove();
            evictedBeforeExpiry++;
        }
        return true;
    }

    /** Forgets {@code hash} again, for a publish that was refused after it was marked. */
    synchronized void forget(MessageHash hash) {
        firstSeen.remove(hash);
    }

    synchronized int size() {
        expire(nanoTime.getAsLong());
        return firstSeen.size();
    }

    /** Entries dropped for room while still within the TTL: a sign the capacity is too small for the rate. */
    synchronized long evictedBeforeExpiry() {
        return evictedBeforeExpiry;
    }

    private void expire(long now) {
        Iterator<Long> ages = firstSeen.values().iterator();
        while (ages.hasNext() && now - ages.next() >= ttlNanos) {
            ages.remove();
        }
    }
}
