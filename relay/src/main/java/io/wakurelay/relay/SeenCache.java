package io.wakurelay.relay;

import java.time.Duration;

/**
 * The ids of messages seen within the seen TTL, for dedup (gossipsub's seen cache). At thousands of messages a
 * second and a two-minute TTL this holds hundreds of thousands of ids, so it is kept compact: the first 64 bits of
 * each id in open-addressing arrays of longs, one per age bracket ({@link #GENERATIONS} brackets span the TTL; the
 * oldest is dropped whole as time passes). Two different messages share a 64-bit prefix with negligible
 * probability, and choosing a message that collides with another's unknown id is a 2^64 search.
 *
 * <p>Bounded by {@code capacity} ids: past it the oldest bracket is dropped early, counted in
 * {@link #evictedEarly()} (a rising count means the capacity is too small for the message rate). Not thread-safe:
 * the router calls it under its lock.
 */
final class SeenCache {
    static final int GENERATIONS = 12;
    private static final int INITIAL_SLOTS = 1024;

    private final int capacity;
    private final long bracketNanos;
    private final LongSet[] generations = new LongSet[GENERATIONS];
    private int current;
    private long bracketStart;
    private int size;
    private long evictedEarly;

    SeenCache(int capacity, Duration ttl, long nowNanos) {
        this.capacity = capacity;
        this.bracketNanos = Math.max(1, ttl.toNanos() / GENERATIONS);
        this.bracketStart = nowNanos;
        for (int i = 0; i < GENERATIONS; i++) {
            generations[i] = new LongSet(INITIAL_SLOTS);
        }
    }

    /** Records {@code id}; returns false when it was seen within the TTL (a duplicate). */
    boolean markSeen(MessageId id, long nowNanos) {
        advance(nowNanos);
        long key = id.prefix();
        if (contains(key)) {
            return false;
        }
        if (size >= capacity) {
            dropOldest();
            evictedEarly++;
        }
        generations[current].add(key);
        size++;
        return true;
    }

    /**
     * Forgets {@code id}, as if it had never been seen: a message that was not validated (the validation stage was
     * full) may come again from another peer and be judged then.
     */
    void forget(MessageId id) {
        long key = id.prefix();
        for (LongSet g : generations) {
            if (g.remove(key)) {
                size--;
                return;
            }
        }
    }

    boolean contains(MessageId id, long nowNanos) {
        advance(nowNanos);
        return contains(id.prefix());
    }

    private boolean contains(long key) {
        for (LongSet g : generations) {
            if (g.contains(key)) {
                return true;
            }
        }
        return false;
    }

    private void advance(long nowNanos) {
        while (nowNanos - bracketStart >= bracketNanos) {
            bracketStart += bracketNanos;
            current = (current + 1) % GENERATIONS;
            size -= generations[current].size();
            generations[current] = new LongSet(INITIAL_SLOTS);
            if (nowNanos - bracketStart >= bracketNanos * GENERATIONS) {
                // idle for a whole TTL: everything is expired
                for (int i = 0; i < GENERATIONS; i++) {
                    generations[i] = new LongSet(INITIAL_SLOTS);
                }
                size = 0;
                bracketStart = nowNanos;
            }
        }
    }

    private void dropOldest() {
        for (int i = 1; i <= GENERATIONS; i++) {
            int g = (current + i) % GENERATIONS;
            if (generations[g].size() > 0) {
                size -= generations[g].size();
                generations[g] = new LongSet(INITIAL_SLOTS);
                return;
            }
        }
    }

    int size() {
        return size;
    }

    long evictedEarly() {
        return evictedEarly;
    }
}
