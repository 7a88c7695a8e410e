package io.wakurelay.p2p;

import io.wakurelay.p2p.crypto.PeerId;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Connection slots and the one connection per peer. A slot is taken when a socket opens (before its handshake) and
 * given back when it closes: inbound sockets may take {@link HostConfig#maxInbound()} slots, the rest is kept for
 * this host's own dials; one IP address may hold {@link HostConfig#maxConnectionsPerAddress()} inbound sockets.
 *
 * <p>Once Noise has proved who a connection is with, {@link #register} decides between it and an existing
 * connection to the same peer. Within {@link HostConfig#duplicateWindow()} of each other the two were opened at the
 * same time by both sides: both keep the one dialled by the peer with the smaller id, so they agree without talking.
 * Later, the live connection stays and the newcomer is closed: a peer cannot take over a proven session, only end it.
 */
final class ConnectionManager {
    private final HostConfig config;
    private final Map<InetAddress, Integer> inboundPerAddress = new HashMap<>();
    private final Map<PeerId, HostConnection> byPeer = new HashMap<>();
    private int inbound;
    private int outbound;

    /** Why a socket was refused a slot (a metric label), or null when it got one. */
    enum Refusal {
        TOO_MANY_CONNECTIONS("too_many_connections"),
        TOO_MANY_FROM_ADDRESS("too_many_from_address");

        private final String label;

        Refusal(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /** What {@link #register} decided. */
    sealed interface Registration {
        record Accepted() implements Registration {
        }

        /** The newcomer is refused; the existing connection stays. */
        record Duplicate(HostConnection kept) implements Registration {
        }

        /** The newcomer is kept; {@code replaced} must be closed. */
        record Replaces(HostConnection replaced) implements Registration {
        }
    }

    ConnectionManager(HostConfig config) {
        this.config = config;
    }

    synchronized Refusal openInbound(InetAddress from) {
        if (inbound >= config.maxInbound() || inbound + outbound >= config.maxConnections()) {
            return Refusal.TOO_MANY_CONNECTIONS;
        }
        int fromAddress = inboundPerAddress.getOrDefault(from, 0);
        if (config.maxConnectionsPerAddress() > 0 && fromAddress >= config.maxConnectionsPerAddress()) {
            return Refusal.TOO_MANY_FROM_ADDRESS;
        }
        inboundPerAddress.put(from, fromAddress + 1);
        inbound++;
        return null;
    }

    synchronized void closedInbound(InetAddress from) {
        inbound--;
        inboundPerAddress.computeIfPresent(from, (a, n) -> n == 1 ? null : n - 1);
    }

    synchronized boolean openOutbound() {
        if (inbound + outbound >= config.maxConnections()) {
            return false;
        }
        outbound++;
        return true;
    }

    synchronized void closedOutbound() {
        outbound--;
    }

    synchronized Registration register(HostConnection connection, PeerId self) {
        PeerId peer = connection.remotePeer();
        HostConnection existing = byPeer.get(peer);
        if (existing == null || !existing.isOpen()) {
            byPeer.put(peer, connection);
            return new Registration.Accepted();
        }
        long apart = Math.abs(connection.establishedNanos() - existing.establishedNanos());
        boolean simultaneous = apart <= TimeUnit.NANOSECONDS.convert(config.duplicateWindow());
        if (simultaneous && dialerId(connection, self).compareTo(dialerId(existing, self)) < 0) {
            byPeer.put(peer, connection);
            return new Registration.Replaces(existing);
        }
        return new Registration.Duplicate(existing);
    }

    private static Unsigned dialerId(HostConnection c, PeerId self) {
        return new Unsigned((c.isOutbound() ? self : c.remotePeer()).bytes());
    }

    /** Peer id bytes compared as unsigned numbers, the same on both sides. */
    private record Unsigned(byte[] bytes) implements Comparable<Unsigned> {
        @Override
        public int compareTo(Unsigned o) {
            return Arrays.compareUnsigned(bytes, o.bytes);
        }
    }

    synchronized void unregister(HostConnection connection) {
        byPeer.remove(connection.remotePeer(), connection);
    }

    synchronized HostConnection connection(PeerId peer) {
        return byPeer.get(peer);
    }

    synchronized List<HostConnection> connections() {
        return new ArrayList<>(byPeer.values());
    }

    synchronized int peers() {
        return byPeer.size();
    }

    synchronized int sockets() {
        return inbound + outbound;
    }
}
