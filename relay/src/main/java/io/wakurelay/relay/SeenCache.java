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
            generations[i] = new LongSet();
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
            generations[current] = new LongSet();
            if (nowNanos - bracketStart >= bracketNanos * GENERATIONS) {
                // idle for a whole TTL: everything is expired
                for (int i = 0; i < GENERATIONS; i++) {
                    generations[i] = new LongSet();
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
                generations[g] = g == current ? new LongSet() : new LongSet(0);
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

    /** An open-addressing set of longs (0 marks an empty slot; the key 0 itself is kept in a flag). */
    private static final class LongSet {
        private long[] slots;
        private int size;
        private boolean hasZero;

        LongSet() {
            this(INITIAL_SLOTS);
        }

        LongSet(int slots) {
            this.slots = slots == 0 ? new long[0] : new long[slots];
        }

        int size() {
            return size;
        }

        boolean contains(long key) {
            if (key == 0) {
                return hasZero;
            }
            if (slots.length == 0) {
                return false;
            }
            long k = key;
            int mask = slots.length - 1;
            for (int i = mix(k) & mask; ; i = (i + 1) & mask) {
                long s = slots[i];
                if (s == 0) {
                    return false;
                }
                if (s == k) {
                    return true;
                }
            }
        }

        void add(long key) {
            if (key == 0) {
                if (!hasZero) {
                    hasZero = true;
                    size++;
                }
                return;
            }
            if (slots.length == 0) {
                slots = new long[INITIAL_SLOTS];
            }
            if ((size + 1) * 2 > slots.length) {
                grow();
            }
            long k = key;
            int mask = slots.length - 1;
            int i = mix(k) & mask;
            while (slots[i] != 0) {
                if (slots[i] == k) {
                    return;
                }
                i = (i + 1) & mask;
            }
            slots[i] = k;
            size++;
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2];
            int mask = slots.length - 1;
            for (long k : old) {
                if (k != 0) {
                    int i = mix(k) & mask;
                    while (slots[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    slots[i] = k;
                }
            }
        }

        private static int mix(long k) {
            long h = k * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }
    }
}
