package io.wakurelay.discovery.discv5;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The session keys agreed with other nodes, one per (node id, UDP endpoint) as the spec keys them (a node that moves
 * must shake hands again), at most {@code capacity}; when full the least recently used goes, and a peer that comes
 * back shakes hands again. Event-loop confined.
 */
final class Sessions {

    /** {@code writeKey} encrypts what we send, {@code readKey} decrypts what the node sends. */
    record Session(byte[] writeKey, byte[] readKey) {
    }

    private final int capacity;
    private final Map<String, Session> sessions;

    Sessions(int capacity) {
        this.capacity = capacity;
        this.sessions = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Session> eldest) {
                return size() > Sessions.this.capacity;
            }
        };
    }

    static String key(byte[] nodeId, InetSocketAddress address) {
        return NodeIds.hex(nodeId) + "@" + address;
    }

    Optional<Session> get(byte[] nodeId, InetSocketAddress address) {
        return Optional.ofNullable(sessions.get(key(nodeId, address)));
    }

    void put(byte[] nodeId, InetSocketAddress address, Session session) {
        sessions.put(key(nodeId, address), session);
    }

    void remove(byte[] nodeId, InetSocketAddress address) {
        sessions.remove(key(nodeId, address));
    }

    int size() {
        return sessions.size();
    }
}
