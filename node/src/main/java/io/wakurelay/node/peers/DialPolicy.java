package io.wakurelay.node.peers;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Collection;

/**
 * Which addresses of discovered records the peer manager dials, as go-libp2p's address filters decide (a node
 * configured as a server denies the private ranges; go-multiaddr's {@code manet} classes, {@link AddressScope}):
 * public addresses always; private ones only when this node's own addresses are private too (a LAN, a container
 * network) or the operator allows them ({@code --dial-private-peers}); loopback ones only when this node's own
 * addresses are all loopback (a test network on 127.0.0.x) or the operator allows them; unroutable ones never. A
 * node's own addresses are what it announces (identify, its ENR): their widest scope is the node's (any public
 * address makes it public; a node that announces only DNS names counts as public).
 *
 * @param own          the widest scope of this node's own addresses
 * @param allowPrivate the operator's {@code --dial-private-peers}: private and loopback addresses are dialled whatever
 *                     this node's own are
 */
record DialPolicy(AddressScope own, boolean allowPrivate) {

    static DialPolicy of(Collection<Multiaddr> ownAddresses, boolean allowPrivate) {
        AddressScope widest = null;
        for (Multiaddr address : ownAddresses) {
            if (address.dnsHost().isPresent() || !(address.isTcp() || address.isWebSocket())) {
                widest = address.dnsHost().isPresent() ? AddressScope.PUBLIC : widest;
                continue;
            }
            InetSocketAddress socket = address.toSocketAddress();
            AddressScope scope = AddressScope.of(socket.getAddress());
            if (scope != AddressScope.UNROUTABLE && (widest == null || rank(scope) < rank(widest))) {
                widest = scope;
            }
        }
        return new DialPolicy(widest == null ? AddressScope.PUBLIC : widest, allowPrivate);
    }

    /** PUBLIC is the widest, LOOPBACK the narrowest. */
    private static int rank(AddressScope scope) {
        return switch (scope) {
            case PUBLIC -> 0;
            case PRIVATE -> 1;
            case LOOPBACK -> 2;
            case UNROUTABLE -> 3;
        };
    }

    /** Whether an address of this scope may be dialled. */
    boolean allows(AddressScope scope) {
        return switch (scope) {
            case PUBLIC -> true;
            case PRIVATE -> allowPrivate || own != AddressScope.PUBLIC;
            case LOOPBACK -> allowPrivate || own == AddressScope.LOOPBACK;
            case UNROUTABLE -> false;
        };
    }

    boolean allows(InetAddress address) {
        return allows(AddressScope.of(address));
    }
}
