package io.wakurelay.relay;

import io.wakurelay.protocol.Envelope;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections of one node: every open one (for the connection limit, subscription announcements and
 * shutdown) and, by node id, the peers past the handshake (for fan-out, {@code peers()} and per-peer meters).
 *
 * <p>One connection per peer node: when a second one completes its handshake, the one dialled by the node with
 * the lower id is kept, so two nodes that dial each other at the same moment both keep the same connection
 * without talking about it. Two connections dialled by the same node: the newer is kept, since a node only
 * redials when it believes its previous connection is gone.
 */
final class PeerRegistry {
    private final String localNodeId;
    private final RelayMetrics metrics;
    private final int maxConnections;
    private final int maxInboundPerAddress;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final Map<InetAddress, Integer> inboundByAddress = new ConcurrentHashMap<>();
    private final Set<PeerSession> connections = ConcurrentHashMap.newKeySet();
    private final Map<String, PeerSession> peers = new ConcurrentHashMap<>();
    private final Map<String, RelayMetrics.PeerMeters> peerMeters = new ConcurrentHashMap<>();

    /** @param maxInboundPerAddress inbound connections one remote address may hold; 0 = no limit but maxConnections */
    PeerRegistry(String localNodeId, RelayMetrics metrics, int maxConnections, int maxInboundPerAddress) {
        this.localNodeId = localNodeId;
        this.metrics = metrics;
        this.maxConnections = maxConnections;
        this.maxInboundPerAddress = maxInboundPerAddress;
    }

    String localNodeId() {
        return localNodeId;
    }

    /** Takes one of the {@code maxConnections} slots; false when all are taken. */
    boolean tryOpen() {
        while (true) {
            int open = openConnections.get();
            if (open >= maxConnections) {
                return false;
            }
            if (openConnections.compareAndSet(open, open + 1)) {
                return true;
            }
        }
    }

    /** Frees a slot taken by {@link #tryOpen()} when its connection closed. */
    void closedSlot() {
        openConnections.decrementAndGet();
    }

    /**
     * Takes one of the inbound places of {@code address}; false when it holds its limit already. Taken before
     * a slot of {@link #tryOpen()}, so that one address cannot fill every slot.
     */
    boolean tryOpenInbound(InetAddress address) {
        if (maxInboundPerAddress == RelayConfig.UNLIMITED_CONNECTIONS_PER_ADDRESS) {
            return true;
        }
        boolean[] taken = {false};
        inboundByAddress.compute(address, (a, open) -> {
            int now = open == null ? 0 : open;
            if (now >= maxInboundPerAddress) {
                return open;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    /** Frees a place taken by {@link #tryOpenInbound}. */
    void closedInbound(InetAddress address) {
        if (maxInboundPerAddress != RelayConfig.UNLIMITED_CONNECTIONS_PER_ADDRESS) {
            inboundByAddress.computeIfPresent(address, (a, open) -> open <= 1 ? null : open - 1);
        }
    }

    int openConnections() {
        return openConnections.get();
    }

    void track(PeerSession session) {
        connections.add(session);
    }

    void untrack(PeerSession session) {
        connections.remove(session);
    }

    /** Every open connection, handshaking or not. */
    Collection<PeerSession> connections() {
        return List.copyOf(connections);
    }

    /**
     * Enters a session that completed its handshake.
     *
     * @return the session to close as a duplicate connection: null when there is none, {@code session} itself
     * when an existing connection to that node is preferred, or the existing session it replaced
     */
    synchronized PeerSession register(PeerSession session) {
        String nodeId = session.peerNodeId();
        PeerSession existing = peers.get(nodeId);
        if (existing == null) {
            peers.put(nodeId, session);
            peerMeters.put(nodeId, metrics.peerMeters(nodeId, this));
            return null;
        }
        if (preferred(existing, session) == existing) {
            return session;
        }
        peers.put(nodeId, session);
        return existing;
    }

    /** Removes a session that ended; its meters go with it unless another session holds the same node id. */
    synchronized boolean unregister(PeerSession session) {
        String nodeId = session.peerNodeId();
        if (nodeId != null && peers.remove(nodeId, session)) {
            RelayMetrics.PeerMeters meters = peerMeters.remove(nodeId);
            if (meters != null) {
                meters.remove();
            }
            return true;
        }
        return false;
    }

    private PeerSession preferred(PeerSession existing, PeerSession newcomer) {
        int order = dialer(existing).compareTo(dialer(newcomer));
        if (order != 0) {
            return order < 0 ? existing : newcomer;
        }
        return newcomer;
    }

    private String dialer(PeerSession session) {
        return session.direction() == Direction.OUTBOUND ? localNodeId : session.peerNodeId();
    }

    /** Writes the envelope's frame to every peer subscribed to its topic, except the one it came from. */
    void fanOut(Envelope envelope, PeerSession from) {
        String topic = envelope.pubsubTopic();
        for (PeerSession peer : peers.values()) {
            if (peer != from && peer.wants(topic)) {
                peer.relay(envelope);
            }
        }
    }

    void countDrop(String nodeId) {
        RelayMetrics.PeerMeters meters = peerMeters.get(nodeId);
        if (meters != null) {
            meters.drops().increment();
        }
    }

    PeerSession byNodeId(String nodeId) {
        return nodeId == null ? null : peers.get(nodeId);
    }

    /** A connected peer that announced {@code listenAddress} as where it accepts connections. */
    PeerSession byListenAddress(String listenAddress) {
        for (PeerSession peer : peers.values()) {
            if (listenAddress.equals(peer.peerListenAddress())) {
                return peer;
            }
        }
        return null;
    }

    List<PeerSession> peers() {
        return new ArrayList<>(peers.values());
    }

    int connectedCount(Direction direction) {
        int count = 0;
        for (PeerSession peer : peers.values()) {
            if (peer.direction() == direction) {
                count++;
            }
        }
        return count;
    }

    long queuedMessages(String nodeId) {
        PeerSession peer = peers.get(nodeId);
        return peer == null ? 0 : peer.queue().messages();
    }

    long queuedBytes(String nodeId) {
        PeerSession peer = peers.get(nodeId);
        return peer == null ? 0 : peer.queue().bytes();
    }
}
