package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The WHOAREYOU challenges we sent and await a handshake for, one per (node id, endpoint) (a newer challenge replaces
 * the older, as the spec asks), at most {@code capacity}: when full the oldest goes. A challenge is good for a short
 * while only. Event-loop confined.
 */
final class Challenges {

    /** {@code known}: the record we held of the node when we challenged it (null: none, the handshake must carry it). */
    record Challenge(byte[] challengeData, Enr known, long sentNanos) {
    }

    private final Map<String, Challenge> challenges;

    Challenges(int capacity) {
        this.challenges = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Challenge> eldest) {
                return size() > capacity;
            }
        };
    }

    void put(byte[] nodeId, InetSocketAddress address, Challenge challenge) {
        String key = Sessions.key(nodeId, address);
        challenges.remove(key); // re-inserted at the end: the newest
        challenges.put(key, challenge);
    }

    /** The challenge, removed; null when there is none or it is older than {@code maxAgeNanos}. */
    Challenge take(byte[] nodeId, InetSocketAddress address, long nowNanos, long maxAgeNanos) {
        Challenge challenge = challenges.remove(Sessions.key(nodeId, address));
        return challenge == null || nowNanos - challenge.sentNanos() > maxAgeNanos ? null : challenge;
    }

    int size() {
        return challenges.size();
    }
}
