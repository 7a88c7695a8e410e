package io.wakurelay.relay;

/**
 * The messages one peer said IDONTWANT for, kept {@code ttl} heartbeats (go-libp2p-pubsub's IDontWantMessageTTL)
 * so that a copy relayed meanwhile is not sent to it. Kept compact, as the seen cache is: the first 64 bits of each
 * id (a peer's ids may be of any length; ours are 32 bytes) in one {@link LongSet} per heartbeat, the oldest dropped
 * whole at each heartbeat. Bounded by {@code capacity} ids: past it the oldest heartbeat's ids go early. A peer that
 * makes another message's prefix its own only keeps that message from itself. Not thread-safe: used under the
 * router's lock.
 */
final class DontWantSet {
    /** Slots of a heartbeat's set at its first id: 128 bytes, doubled as needed. */
    private static final int INITIAL_SLOTS = 16;

    private final int capacity;
    private final LongSet[] generations;
    private int current;
    private int size;

    DontWantSet(int ttlHeartbeats, int capacity) {
        this.capacity = capacity;
        this.generations = new LongSet[ttlHeartbeats];
        for (int i = 0; i < ttlHeartbeats; i++) {
            generations[i] = new LongSet(INITIAL_SLOTS);
        }
    }

    /** Remembers the id whose first 64 bits are {@code prefix} for this heartbeat and the next {@code ttl - 1}. */
    void add(long prefix) {
        if (contains(prefix)) {
            return;
        }
        if (size >= capacity) {
            dropOldest();
        }
        generations[current].add(prefix);
        size++;
    }

    boolean contains(long prefix) {
        for (LongSet g : generations) {
            if (g.contains(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** A heartbeat passed: the ids of the oldest heartbeat leave. */
    void heartbeat() {
        current = (current + 1) % generations.length;
        size -= generations[current].size();
        generations[current] = new LongSet(INITIAL_SLOTS);
    }

    private void dropOldest() {
        for (int i = 1; i <= generations.length; i++) {
            int g = (current + i) % generations.length;
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

    /** The bytes of its arrays. */
    long arrayBytes() {
        long bytes = 0;
        for (LongSet g : generations) {
            bytes += g.arrayBytes();
        }
        return bytes;
    }
}
