package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The addresses identify announces (and the node logs and serves in {@code /debug/v1/info}), as nwaku forms them:
 * for TCP and for WebSocket each, {@code /dns4/<name>/tcp/<port>[/ws|/wss]} with {@link HostConfig#dns4DomainName()};
 * else the bound address, or for a wildcard bind the addresses of the machine's interfaces that are up (never
 * 0.0.0.0, which no peer can dial), unless an {@link HostConfig#announceAddresses() --ext-multiaddr} of that transport
 * replaces it; then every {@code --ext-multiaddr}. TCP comes first: peers take the first address. With
 * {@link HostConfig#externalAddressesOnly() --ext-multiaddr-only}, the {@code --ext-multiaddr} addresses alone.
 */
final class AnnouncedAddresses {
    private static final Logger log = LoggerFactory.getLogger(AnnouncedAddresses.class);

    private AnnouncedAddresses() {
    }

    /**
     * @param tcp bound TCP listen address, or null
     * @param ws  bound WebSocket listen address, or null when WebSocket does not listen
     * @param wsTransport {@link Transport#WS} or {@link Transport#WSS}
     */
    static List<Multiaddr> of(HostConfig config, InetSocketAddress tcp, InetSocketAddress ws, Transport wsTransport) {
        List<Multiaddr> external = config.announceAddresses();
        if (config.externalAddressesOnly()) {
            return external;
        }
        boolean externalTcp = external.stream().anyMatch(a -> !a.isWebSocket());
        boolean externalWs = external.stream().anyMatch(Multiaddr::isWebSocket);
        String name = config.dns4DomainName();
        LinkedHashSet<Multiaddr> out = new LinkedHashSet<>();
        if (tcp != null) {
            if (name != null) {
                out.add(Multiaddr.parse("/dns4/" + name + "/tcp/" + tcp.getPort()));
            } else if (!externalTcp) {
                out.addAll(bound(tcp, config.listenAddress(), Transport.TCP));
            }
        }
        if (ws != null) {
            if (name != null) {
                out.add(wsTransport.on(Multiaddr.parse("/dns4/" + name + "/tcp/" + ws.getPort())));
            } else if (!externalWs) {
                out.addAll(bound(ws, config.listenAddress(), wsTransport));
            }
        }
        out.addAll(external);
        return List.copyOf(out);
    }

    private static List<Multiaddr> bound(InetSocketAddress bound, InetSocketAddress configured, Transport transport) {
        if (!bound.getAddress().isAnyLocalAddress()) {
            return List.of(transport.on(Multiaddr.of(bound)));
        }
        // the configured address says the family: a dual-stack socket bound for 0.0.0.0 reports ::
        boolean ipv6 = configured == null ? bound.getAddress() instanceof Inet6Address
                : configured.getAddress() instanceof Inet6Address;
        List<Multiaddr> external = new ArrayList<>();
        List<Multiaddr> loopback = new ArrayList<>();
        List<Multiaddr> v6 = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a.isLinkLocalAddress() || (a instanceof Inet6Address && !ipv6)) {
                        continue; // a link-local address needs its zone, which is no use to a peer elsewhere
                    }
                    Multiaddr address = transport.on(Multiaddr.of(new InetSocketAddress(unscoped(a), bound.getPort())));
                    (a instanceof Inet6Address ? v6 : a.isLoopbackAddress() ? loopback : external).add(address);
                }
            }
        } catch (SocketException e) {
            log.atWarn().addKeyValue("reason", e.toString()).log("cannot list network interfaces");
        }
        // what a peer elsewhere can dial first, as peers (and the README's tour) take the first address
        List<Multiaddr> addresses = new ArrayList<>(external);
        addresses.addAll(loopback);
        addresses.addAll(v6);
        return addresses;
    }

    /** The address without the interface scope the JDK attaches to every IPv6 address of a network interface. */
    private static InetAddress unscoped(InetAddress a) {
        if (!(a instanceof Inet6Address)) {
            return a;
        }
        try {
            return InetAddress.getByAddress(a.getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: 16 bytes are a valid address
        }
    }
}
