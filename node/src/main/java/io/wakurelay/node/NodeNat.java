package io.wakurelay.node;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.nat.NatMapping;
import io.wakurelay.p2p.nat.NatMetrics;
import io.wakurelay.p2p.nat.NatPort;
import io.wakurelay.p2p.ws.WebSocketConfig;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --nat=any|upnp|pmp} in the node (docs/p2p.md, "Port mapping"): the ports it maps (TCP, the WebSocket port
 * when it listens, discv5's UDP port when discv5 runs), the mapping started before the host listens and stopped after
 * it closes, and what is announced from it, as {@code --nat=extip:} announces: the gateway's external address with the
 * mapped ports first among the host's addresses (so the ENR's {@code ip} and {@code tcp}), and the mapped UDP port as
 * the ENR's {@code udp}. Without a gateway, what nwaku announces then: the bound addresses. The meters are registered in
 * every node, {@code state="off"} without a mapping.
 */
final class NodeNat {
    private final NatMapping mapping;
    private final NatPort tcp;
    private final NatPort webSocket;
    private final NatPort udp;

    private NodeNat(NatMapping mapping, NatPort tcp, NatPort webSocket, NatPort udp) {
        this.mapping = mapping;
        this.tcp = tcp;
        this.webSocket = webSocket;
        this.udp = udp;
    }

    static NodeNat start(NodeConfig config, MeterRegistry registry, StartedComponents components) {
        NatMetrics metrics = new NatMetrics(registry);
        if (config.nat() == null) {
            return new NodeNat(null, null, null, null);
        }
        List<NatPort> ports = new ArrayList<>();
        NatPort tcp = NatPort.tcp(config.host().listenAddress().getPort());
        ports.add(tcp);
        WebSocketConfig ws = config.host().webSocket();
        NatPort webSocket = ws.listen() ? NatPort.tcp(ws.port()) : null;
        if (webSocket != null) {
            ports.add(webSocket);
        }
        int udpPort = config.discovery().discv5UdpPort();
        NatPort udp = udpPort != 0 ? NatPort.udp(udpPort) : null;
        if (udp != null) {
            ports.add(udp);
        }
        NatMapping mapping = NatMapping.start(config.nat(), ports, metrics);
        components.add("NAT port mapping", mapping, mapping::shutdown, mapping);
        return new NodeNat(mapping, tcp, webSocket, udp);
    }

    /**
     * {@code host} announcing the gateway's external address with the mapped ports before its own announced
     * addresses (as {@code --nat=extip:}); as it is without an external address or with {@code --ext-multiaddr-only}.
     */
    HostConfig announcing(HostConfig host) {
        if (mapping == null || mapping.externalAddress().isEmpty() || host.externalAddressesOnly()) {
            return host;
        }
        InetAddress external = mapping.externalAddress().get();
        List<Multiaddr> announced = new ArrayList<>();
        announced.add(Multiaddr.of(new InetSocketAddress(external, mapping.externalPort(tcp))));
        if (webSocket != null) {
            Multiaddr ws = Multiaddr.of(new InetSocketAddress(external, mapping.externalPort(webSocket)));
            announced.add(Multiaddr.parse(ws + (host.webSocket().secure() ? "/wss" : "/ws")));
        }
        announced.addAll(host.announceAddresses());
        return host.toBuilder().announceAddresses(announced).build();
    }

    /** The UDP port the ENR names for discv5 bound at {@code bound}: the gateway's when it maps it. */
    int udpPort(int bound) {
        return mapping == null || udp == null || udp.internalPort() != bound ? bound : mapping.externalPort(udp);
    }
}
