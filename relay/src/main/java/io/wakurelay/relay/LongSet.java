package io.wakurelay.relay;

/**
 * An open-addressing set of longs (linear probing, at most half full): the 64-bit id prefixes of the seen cache and
 * of each peer's IDONTWANT set, at 8 to 32 bytes per key and no object per key. 0 marks an empty slot, so the key 0
 * itself is kept in a flag. The array is made at the first add (an empty set costs no array) and doubles when half
 * full. Keys are seldom removed one by one ({@link #remove}, backward-shift deletion, so that no tombstone is left): a
 * set is mostly dropped whole when its keys expire. Not thread-safe.
 */
final class LongSet {
    private static final long[] NONE = new long[0];

    private final int initialSlots;
    private long[] slots = NONE;
    private int size;
    private boolean hasZero;

    /** @param initialSlots the slots of the array made at the first add, a power of two */
    LongSet(int initialSlots) {
        if (initialSlots < 2 || Integer.bitCount(initialSlots) != 1) {
            throw new IllegalArgumentException("initial slots must be a power of two, at least 2, was "
                    + initialSlots);
        }
        this.initialSlots = initialSlots;
    }

    int size() {
        return size;
    }

    /** The bytes of its array: what it holds beyond a few fields. */
    long arrayBytes() {
        return 8L * slots.length;
    }

    boolean contains(long key) {
        if (key == 0) {
            return hasZero;
        }
        if (slots.length == 0) {
            return false;
        }
        int mask = slots.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == 0) {
                return false;
            }
            if (s == key) {
                return true;
            }
        }
    }

    /** Adds {@code key}; false when it was there already. */
    boolean add(long key) {
        if (key == 0) {
            if (hasZero) {
                return false;
            }
            hasZero = true;
            size++;
            return true;
        }
        if (slots.length == 0) {
            slots = new long[initialSlots];
        }
        if ((size + 1) * 2 > slots.length) {
            grow();
        }
        int mask = slots.length - 1;
        int i = mix(key) & mask;
        while (slots[i] != 0) {
            if (slots[i] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = key;
        size++;
        return true;
    }

    /** Removes {@code key}; false when it was not there. */
    boolean remove(long key) {
        if (key == 0) {
            if (!hasZero) {
                return false;
            }
            hasZero = false;
            size--;
            return true;
        }
        if (slots.length == 0) {
            return false;
        }
        int mask = slots.length - 1;
        int i = mix(key) & mask;
        while (slots[i] != key) {
            if (slots[i] == 0) {
                return false;
            }
            i = (i + 1) & mask;
        }
        // shift back the keys after it that probed past its slot, so that every key stays reachable from its home
        for (int j = (i + 1) & mask; slots[j] != 0; j = (j + 1) & mask) {
            int home = mix(slots[j]) & mask;
            boolean between = i <= j ? i < home && home <= j : i < home || home <= j;
            if (!between) {
                slots[i] = slots[j];
                i = j;
            }
        }
        slots[i] = 0;
        size--;
        return true;
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
