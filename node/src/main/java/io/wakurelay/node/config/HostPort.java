package io.wakurelay.node.config;

import java.net.InetSocketAddress;

/** Parses {@code host:port} (IPv6 hosts in brackets) into an unresolved socket address. */
public final class HostPort {
    private HostPort() {
    }

    /** @throws IllegalArgumentException saying what is wrong */
    public static InetSocketAddress parse(String text) {
        String s = text.trim();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has a port that is not a number", e);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("'" + text + "' has a port outside 1..65535");
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    public static String format(InetSocketAddress address) {
        String host = address.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
