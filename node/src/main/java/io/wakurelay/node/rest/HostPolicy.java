package io.wakurelay.node.rest;

import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which {@code Host} headers the API answers. DNS rebinding makes a browser send a page's requests to
 * 127.0.0.1 under the attacker's own name ({@code Host: rebind.attacker.example:8645}); refusing names the
 * operator did not give defeats it. Accepted: an IP literal of the bound address (any IP literal when bound
 * to every interface), {@code localhost} when the API listens on loopback or every interface, and the names of
 * {@code --rest-allow-host} ({@code *}: any). The port is not checked (port forwarding changes it). No DNS
 * lookup is ever made for a request. The metrics server uses it too, with the same names.
 */
public final class HostPolicy {
    private final byte[] bound;
    private final boolean wildcard;
    private final boolean loopback;
    private final Set<String> names = new HashSet<>();
    private final boolean anyName;

    public HostPolicy(String boundAddress, List<String> allowedNames) {
        InetAddress address;
        try {
            address = InetAddress.getByName(boundAddress); // once, at start-up; a literal needs no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("REST address '" + boundAddress + "' does not resolve", e);
        }
        this.bound = address.getAddress();
        this.wildcard = address.isAnyLocalAddress();
        this.loopback = address.isLoopbackAddress();
        if (NetUtil.createByteArrayFromIpAddressString(boundAddress) == null) {
            names.add(boundAddress.toLowerCase(Locale.ROOT)); // bound by name: that name is the node's own
        }
        allowedNames.forEach(n -> names.add(n.toLowerCase(Locale.ROOT)));
        this.anyName = names.contains("*");
    }

    /** @param host the Host header (null when absent, as HTTP/1.0 allows: nothing to check then) */
    public boolean allows(String host) {
        if (host == null) {
            return true;
        }
        String name = hostName(host.trim());
        if (name == null) {
            return false;
        }
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(name);
        if (literal != null) {
            return wildcard || Arrays.equals(literal, bound) || mappedEquals(literal);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".")) {
            lower = lower.substring(0, lower.length() - 1);
        }
        if (lower.equals("localhost") && (loopback || wildcard)) {
            return true;
        }
        return anyName || names.contains(lower);
    }

    /** {@code ::ffff:127.0.0.1} is 127.0.0.1. */
    private boolean mappedEquals(byte[] literal) {
        if (literal.length != 16 || bound.length != 4 || literal[10] != (byte) 0xff || literal[11] != (byte) 0xff) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (literal[i] != 0) {
                return false;
            }
        }
        return Arrays.equals(Arrays.copyOfRange(literal, 12, 16), bound);
    }

    /** The host part of {@code name[:port]} or {@code [v6][:port]}; null when it is not of that shape. */
    private static String hostName(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            if (end < 0 || !(end == host.length() - 1 || host.charAt(end + 1) == ':')) {
                return null;
            }
            return host.substring(1, end);
        }
        int colon = host.indexOf(':');
        if (colon >= 0 && host.indexOf(':', colon + 1) >= 0) {
            return null; // an IPv6 literal must be bracketed
        }
        String name = colon < 0 ? host : host.substring(0, colon);
        return name.isEmpty() ? null : name;
    }
}
