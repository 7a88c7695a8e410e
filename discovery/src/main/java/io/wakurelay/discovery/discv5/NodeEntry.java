package io.wakurelay.discovery.discv5;

import io.wakurelay.discovery.enr.Enr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/** A verified record and the UDP endpoint it names (ip/udp, else ip6/udp6), with its node id computed once. */
public record NodeEntry(Enr enr, byte[] id, InetSocketAddress udp) {

    /** The record's node and its UDP endpoint; empty when it names none (a node we cannot talk to). */
    public static Optional<NodeEntry> of(Enr enr) {
        Optional<InetSocketAddress> udp = endpoint(enr);
        return udp.map(address -> new NodeEntry(enr, enr.nodeId(), address));
    }

    static Optional<InetSocketAddress> endpoint(Enr enr) {
        try {
            Optional<InetAddress> ip4 = enr.ip4();
            Optional<Integer> udp4 = enr.udp();
            if (ip4.isPresent() && udp4.isPresent() && udp4.get() > 0) {
                return Optional.of(new InetSocketAddress(ip4.get(), udp4.get()));
            }
            Optional<InetAddress> ip6 = enr.ip6();
            Optional<Integer> udp6 = enr.udp6().or(enr::udp);
            if (ip6.isPresent() && udp6.isPresent() && udp6.get() > 0) {
                return Optional.of(new InetSocketAddress(ip6.get(), udp6.get()));
            }
        } catch (RuntimeException e) {
            return Optional.empty(); // a field of the wrong shape: no endpoint
        }
        return Optional.empty();
    }

    public String idHex() {
        return NodeIds.hex(id);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NodeEntry n && java.util.Arrays.equals(id, n.id) && udp.equals(n.udp)
                && enr.equals(n.enr);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(id);
    }

    @Override
    public String toString() {
        return NodeIds.shortHex(id) + "@" + udp;
    }
}
