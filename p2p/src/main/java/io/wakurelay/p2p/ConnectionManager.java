package io.wakurelay.p2p;

import io.netty.channel.Channel;
import io.wakurelay.p2p.crypto.PeerId;

import java.net.Inet4Address;
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
 * One /24 of IPv4 or /64 of IPv6 may hold {@link HostConfig#subnetColocationLimit()} (loopback is exempt, as in
 * go-libp2p's resource manager: nodes and tests on one machine).
 *
 * <p>Squatters cannot hold every inbound slot: when they are all taken, a newcomer takes the slot of the inbound
 * socket that has been handshaking longest (sockets are kept in the order they opened). A socket that opens and sends
 * nothing so ends as soon as someone else needs its slot, however many addresses its owner has, and an honest dialer's
 * handshake (milliseconds) is never the oldest for long. When no socket is handshaking, {@link #openInbound} answers
 * {@link Admission.Full}: the host then asks its {@link ConnectionTrimmer} for the least useful upgraded connection
 * and gives its slot to the newcomer with {@link #evictFor} (ADR 0086).
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
    /** Inbound sockets per /24 (IPv4) or /64 (IPv6), loopback left out. */
    private final Map<Subnet, Integer> inboundPerSubnet = new HashMap<>();
    private final Map<PeerId, HostConnection> byPeer = new HashMap<>();
    private int outbound;

    private static final class InboundSocket {
        final InetAddress from;
        boolean upgraded;
        /** Once registered: the connection upgraded on this socket. */
        HostConnection connection;

        InboundSocket(InetAddress from) {
            this.from = from;
        }
    }

    /** Why a socket was refused a slot (a metric label). */
    enum Refusal {
        TOO_MANY_CONNECTIONS("too_many_connections"),
        TOO_MANY_FROM_ADDRESS("too_many_from_address"),
        TOO_MANY_FROM_SUBNET("too_many_from_subnet");

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

        /**
         * Every inbound slot is held by an upgraded connection: the newcomer gets a slot only if one of them is given
         * up for it ({@link #evictFor}).
         */
        record Full() implements Admission {
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
     * none is free, or a refusal. The address's and its subnet's limits are checked first: an address at its limit
     * evicts no one.
     */
    synchronized Admission openInbound(Channel channel, InetAddress from) {
        Refusal refusal = overLimits(from);
        if (refusal != null) {
            return new Admission.Refused(refusal);
        }
        Channel evicted = null;
        if (full()) {
            evicted = longestHandshaking();
            if (evicted == null) {
                return new Admission.Full();
            }
            forget(evicted);
        }
        admit(channel, from);
        return new Admission.Admitted(evicted);
    }

    /**
     * Gives the slot of {@code victim}, an upgraded inbound connection, to the socket {@code channel} opened from
     * {@code from} (after {@link Admission.Full}): admitted, and the caller closes the victim, unless the victim is
     * gone already or the newcomer is now past a limit. A slot freed meanwhile is taken without an eviction.
     */
    synchronized Admission evictFor(Channel channel, InetAddress from, HostConnection victim) {
        Refusal refusal = overLimits(from);
        if (refusal != null) {
            return new Admission.Refused(refusal);
        }
        if (full()) {
            InboundSocket socket = inbound.get(victim.channel());
            if (socket == null || socket.connection != victim) {
                return new Admission.Refused(Refusal.TOO_MANY_CONNECTIONS);
            }
            forget(victim.channel());
        } else {
            victim = null;
        }
        admit(channel, from);
        return new Admission.Admitted(victim == null ? null : victim.channel());
    }

    private boolean full() {
        return inbound.size() >= config.maxInbound() || inbound.size() + outbound >= config.maxConnections();
    }

    private Refusal overLimits(InetAddress from) {
        if (config.ipColocationLimit() > 0 && inboundPerAddress.getOrDefault(from, 0) >= config.ipColocationLimit()) {
            return Refusal.TOO_MANY_FROM_ADDRESS;
        }
        Subnet subnet = subnet(from);
        if (subnet != null && config.subnetColocationLimit() > 0
                && inboundPerSubnet.getOrDefault(subnet, 0) >= config.subnetColocationLimit()) {
            return Refusal.TOO_MANY_FROM_SUBNET;
        }
        return null;
    }

    private void admit(Channel channel, InetAddress from) {
        inbound.put(channel, new InboundSocket(from));
        inboundPerAddress.merge(from, 1, Integer::sum);
        Subnet subnet = subnet(from);
        if (subnet != null) {
            inboundPerSubnet.merge(subnet, 1, Integer::sum);
        }
    }

    /** A /24 of IPv4 or a /64 of IPv6: the first 3 or 8 bytes of the address. */
    record Subnet(boolean ip6, long prefix) {
    }

    /** The subnet whose limit {@code address} counts against; null for loopback, which no subnet limit applies to. */
    static Subnet subnet(InetAddress address) {
        if (address.isLoopbackAddress()) {
            return null;
        }
        byte[] b = address.getAddress();
        int bytes = address instanceof Inet4Address ? 3 : 8;
        long prefix = 0;
        for (int i = 0; i < bytes; i++) {
            prefix = (prefix << 8) | (b[i] & 0xffL);
        }
        return new Subnet(bytes == 8, prefix);
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
     * An inbound socket completed its upgrade: from now on a newcomer takes its slot only through {@link #evictFor}.
     * False when it was evicted first (its slot is gone: the caller must end it).
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
            Subnet subnet = subnet(socket.from);
            if (subnet != null) {
                inboundPerSubnet.computeIfPresent(subnet, (a, n) -> n == 1 ? null : n - 1);
            }
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
            attach(connection);
            return new Registration.Accepted();
        }
        long apart = Math.abs(connection.establishedNanos() - existing.establishedNanos());
        boolean simultaneous = apart <= TimeUnit.NANOSECONDS.convert(config.duplicateWindow());
        if (simultaneous && dialerId(connection, self).compareTo(dialerId(existing, self)) < 0) {
            byPeer.put(peer, connection);
            attach(connection);
            return new Registration.Replaces(existing);
        }
        return new Registration.Duplicate(existing);
    }

    /** The inbound socket of a registered connection knows it: it may be given up for a newcomer. */
    private void attach(HostConnection connection) {
        InboundSocket socket = connection.isOutbound() ? null : inbound.get(connection.channel());
        if (socket != null) {
            socket.connection = connection;
        }
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

    /** The registered inbound connections, oldest socket first: those a newcomer may take the slot of. */
    synchronized List<HostConnection> inboundConnections() {
        List<HostConnection> out = new ArrayList<>();
        for (InboundSocket socket : inbound.values()) {
            if (socket.connection != null) {
                out.add(socket.connection);
            }
        }
        return out;
    }

    synchronized int peers() {
        return byPeer.size();
    }

    synchronized int sockets() {
        return inbound.size() + outbound;
    }
}
