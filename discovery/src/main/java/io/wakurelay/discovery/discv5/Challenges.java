package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The WHOAREYOU challenges we sent and await a handshake for, one per (node id, endpoint), at most {@code capacity},
 * in the order they were sent. A challenge is good for {@code lifetimeNanos}; one younger than {@code protectNanos}
 * (the time a handshake is given to come back, a round trip and then some) is never pushed out by a newcomer: when the
 * table holds only such, the newcomer gets no challenge ({@link #put} says so) rather than evict one an honest node is
 * answering. While a node's challenge is that young, a second packet of it gets the same challenge again
 * ({@link #current}), as go-ethereum and nim-eth do, instead of a new one that would void the first. Event-loop
 * confined.
 */
final class Challenges {

    /** {@code known}: the record we held of the node when we challenged it (null: none, the handshake must carry it). */
    record Challenge(Packet whoareyou, Enr known, long sentNanos) {
        byte[] challengeData() {
            return whoareyou.challengeData();
        }
    }

    private final int capacity;
    private final long protectNanos;
    private final long lifetimeNanos;
    private final Map<String, Challenge> challenges = new LinkedHashMap<>(64, 0.75f, false);

    Challenges(int capacity, long protectNanos, long lifetimeNanos) {
        if (capacity < 1 || protectNanos <= 0 || lifetimeNanos < protectNanos) {
            throw new IllegalArgumentException("challenges need a capacity, a protection and a lifetime at least as "
                    + "long, were " + capacity + ", " + protectNanos + " ns, " + lifetimeNanos + " ns");
        }
        this.capacity = capacity;
        this.protectNanos = protectNanos;
        this.lifetimeNanos = lifetimeNanos;
    }

    /** The challenge sent to this node and endpoint less than the protection ago, or null. */
    Challenge current(byte[] nodeId, InetSocketAddress address, long nowNanos) {
        Challenge challenge = challenges.get(Sessions.key(nodeId, address));
        return challenge != null && nowNanos - challenge.sentNanos() < protectNanos ? challenge : null;
    }

    /**
     * Keeps {@code challenge} (replacing an older one of the same node and endpoint). Expired challenges go first;
     * when the table is full the oldest goes if it is past the protection.
     *
     * @return false when the table is full of challenges younger than the protection: nothing was kept
     */
    boolean put(byte[] nodeId, InetSocketAddress address, Challenge challenge, long nowNanos) {
        String key = Sessions.key(nodeId, address);
        challenges.remove(key); // re-inserted at the end: the newest
        Iterator<Challenge> oldestFirst = challenges.values().iterator();
        while (oldestFirst.hasNext()) {
            long age = nowNanos - oldestFirst.next().sentNanos();
            if (age > lifetimeNanos || challenges.size() >= capacity && age >= protectNanos) {
                oldestFirst.remove();
            } else {
                break;
            }
        }
        if (challenges.size() >= capacity) {
            return false;
        }
        challenges.put(key, challenge);
        return true;
    }

    /** The challenge, removed; null when there is none or it is past its lifetime. */
    Challenge take(byte[] nodeId, InetSocketAddress address, long nowNanos) {
        Challenge challenge = challenges.remove(Sessions.key(nodeId, address));
        return challenge == null || nowNanos - challenge.sentNanos() > lifetimeNanos ? null : challenge;
    }

    int size() {
        return challenges.size();
    }
}
