package io.wakurelay.node.config;

import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.WebSocketConfig;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * nwaku's {@code --nat} ({@code waku/common/utils/nat.nim}): {@code any}, {@code none}, {@code upnp}, {@code pmp} or
 * {@code extip:<IP>}, any case.
 *
 * @param method     {@code any}, {@code none}, {@code upnp}, {@code pmp} or {@code extip}
 * @param externalIp the IP of {@code extip:<IP>}, else null
 */
record NatMethod(String method, InetAddress externalIp) {
    private static final List<String> MAPPING = List.of("any", "upnp", "pmp");

    /** @throws IllegalArgumentException in nwaku's words */
    static NatMethod parse(String text) {
        String value = text == null ? "none" : text.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("none") || MAPPING.contains(lower)) {
            return new NatMethod(lower, null);
        }
        if (!lower.startsWith("extip:")) {
            throw new IllegalArgumentException("not a valid NAT mechanism: " + value
                    + " (any, none, upnp, pmp or extip:<IP>)");
        }
        String ip = value.substring("extip:".length()).strip();
        // a literal, never a name to resolve: four decimal octets, or IPv6 (which the JDK parses without a lookup)
        if (!(ip.contains(":") ? ip.matches("[0-9a-fA-F:.]+") : ipv4(ip))) {
            throw new IllegalArgumentException("not a valid IP address: " + ip);
        }
        try {
            return new NatMethod("extip", InetAddress.getByName(ip));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not a valid IP address: " + ip, e);
        }
    }

    private static boolean ipv4(String ip) {
        String[] octets = ip.split("\\.", -1);
        if (octets.length != 4) {
            return false;
        }
        for (String octet : octets) {
            if (!octet.matches("[0-9]{1,3}") || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    /** Whether the gateway is asked to map the port ({@code any}, {@code upnp}, {@code pmp}). */
    boolean mapsPorts() {
        return MAPPING.contains(method);
    }

    /**
     * The addresses peers dial at the external IP, as nwaku's NetConfig forms them: the TCP port, then the WebSocket
     * port when it listens; the ports are the bound ones, forwarded by hand.
     */
    List<Multiaddr> addresses(int tcpPort, WebSocketConfig webSocket) {
        List<Multiaddr> addresses = new ArrayList<>();
        addresses.add(Multiaddr.of(new InetSocketAddress(externalIp, port(tcpPort, "--tcp-port"))));
        if (webSocket.listen()) {
            Multiaddr tcp = Multiaddr.of(new InetSocketAddress(externalIp, port(webSocket.port(), "--websocket-port")));
            addresses.add(Multiaddr.parse(tcp + (webSocket.secure() ? "/wss" : "/ws")));
        }
        return addresses;
    }

    private static int port(int port, String option) {
        if (port == 0) {
            throw new IllegalArgumentException("extip needs a fixed " + option + ": with 0 the system picks the port, "
                    + "which the address announced cannot name");
        }
        return port;
    }
}
