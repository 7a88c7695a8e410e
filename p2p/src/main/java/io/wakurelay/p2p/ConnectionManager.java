package io.wakurelay.p2p;

import io.netty.channel.Channel;
import io.wakurelay.p2p.crypto.PeerId;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Connection slots and the one connection per peer. A slot is taken when a socket opens (before its handshake) and
 * given back when it closes: inbound sockets may take {@link HostConfig#maxInbound()} slots, the rest is kept for
 * this host's own dials; one IP address may hold {@link HostConfig#ipColocationLimit()} inbound sockets.
 *
 * <p>Squatters cannot hold every inbound slot: when they are all taken, a newcomer takes the slot of the inbound
 * socket that has been handshaking longest (sockets are kept in the order they opened; one that completed its
 * upgrade is never evicted for a newcomer). A socket that opens and sends nothing so ends as soon as someone else
 * needs its slot, however many addresses its owner has, and an honest dialer's handshake (milliseconds) is never the
 * oldest for long.
 *
 * <p>Once Noise has proved who a connection is with, {@link #register} decides between it and an existing
 * connection to the same peer. Within {@link HostConfig#duplicateWindow()} of each other the two were opened at the
 * same time by both sides: both keep the one dialled by the peer with the smaller id, so they agree without talking.
 * Later, the live connection stays and the newcomer is closed: a peer cannot take over a proven session, only end it.
 */
final class ConnectionManager {
    private final HostConfig config;
    /** Every inbound socket, oldest first. */
    private final LinkedHashMap<Channel, InboundSocket> inbound = new LinkedHashMap<>();
    private final Map<InetAddress, Integer> inboundPerAddress = new HashMap<>();
    private final Map<PeerId, HostConnection> byPeer = new HashMap<>();
    private int outbound;

    private static final class InboundSocket {
        final InetAddress from;
        boolean upgraded;

        InboundSocket(InetAddress from) {
            this.from = from;
        }
    }

    /** Why a socket was refused a slot (a metric label). */
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

    /** What {@link #openInbound} decided. */
    sealed interface Admission {
        /**
         * The socket has a slot. {@code evicted}, when not null, is the inbound socket still handshaking whose slot it
         * took: it no longer counts, and the caller must end it.
         */
        record Admitted(Channel evicted) implements Admission {
        }

        record Refused(Refusal refusal) implements Admission {
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

    /**
     * A slot for a socket a peer opened from {@code from}, the slot of the longest-handshaking inbound socket when
     * none is free, or a refusal. The address's limit is checked first: an address at its limit evicts no one.
     */
    synchronized Admission openInbound(Channel channel, InetAddress from) {
        int fromAddress = inboundPerAddress.getOrDefault(from, 0);
        if (config.ipColocationLimit() > 0 && fromAddress >= config.ipColocationLimit()) {
            return new Admission.Refused(Refusal.TOO_MANY_FROM_ADDRESS);
        }
        Channel evicted = null;
        if (inbound.size() >= config.maxInbound() || inbound.size() + outbound >= config.maxConnections()) {
            evicted = longestHandshaking();
            if (evicted == null) {
                return new Admission.Refused(Refusal.TOO_MANY_CONNECTIONS);
            }
            forget(evicted);
        }
        inbound.put(channel, new InboundSocket(from));
        inboundPerAddress.merge(from, 1, Integer::sum);
        return new Admission.Admitted(evicted);
    }

    private Channel longestHandshaking() {
        for (Map.Entry<Channel, InboundSocket> socket : inbound.entrySet()) {
            if (!socket.getValue().upgraded) {
                return socket.getKey();
            }
        }
        return null;
    }

    /**
     * An inbound socket completed its upgrade: from now on no newcomer evicts it. False when it was evicted first
     * (its slot is gone: the caller must end it).
     */
    synchronized boolean upgraded(Channel channel) {
        InboundSocket socket = inbound.get(channel);
        if (socket == null) {
            return false;
        }
        socket.upgraded = true;
        return true;
    }

    /** An inbound socket closed; its slot is free again, unless it had been given to a newcomer already. */
    synchronized void closedInbound(Channel channel) {
        forget(channel);
    }

    private void forget(Channel channel) {
        InboundSocket socket = inbound.remove(channel);
        if (socket != null) {
            inboundPerAddress.computeIfPresent(socket.from, (a, n) -> n == 1 ? null : n - 1);
        }
    }

    synchronized boolean openOutbound() {
        if (inbound.size() + outbound >= config.maxConnections()) {
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
        return inbound.size() + outbound;
    }
}
