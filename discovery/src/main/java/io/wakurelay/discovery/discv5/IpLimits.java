package io.wakurelay.discovery.discv5;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * How many entries of one IP address a part of the routing table holds, and at most {@code limit}: nim-eth's
 * {@code IpLimits} (eth/net/utils.nim), counted per exact address as there. Only public addresses are counted: the
 * limits defend against many node ids behind one public address (a Sybil), which on a private network or a host's
 * loopback means nothing (nim-eth and go-ethereum exempt them the same way). The map holds one entry per counted
 * address, so it is bounded by the table it counts for (256 × (16 + 4) entries).
 */
final class IpLimits {
    private final int limit;
    private final Map<InetAddress, Integer> counts = new HashMap<>();

    IpLimits(int limit) {
        this.limit = limit;
    }

    /** Counts one more entry of {@code ip}; false (and nothing counted) when it already has {@code limit}. */
    boolean tryAdd(InetAddress ip) {
        if (!counted(ip)) {
            return true;
        }
        int now = counts.getOrDefault(ip, 0);
        if (now >= limit) {
            return false;
        }
        counts.put(ip, now + 1);
        return true;
    }

    void remove(InetAddress ip) {
        if (counted(ip)) {
            counts.computeIfPresent(ip, (k, n) -> n <= 1 ? null : n - 1);
        }
    }

    int count(InetAddress ip) {
        return counts.getOrDefault(ip, 0);
    }

    /** A public address: not loopback, private (RFC 1918, IPv6 unique local), link-local or unspecified. */
    static boolean counted(InetAddress ip) {
        if (ip.isLoopbackAddress() || ip.isSiteLocalAddress() || ip.isLinkLocalAddress() || ip.isAnyLocalAddress()) {
            return false;
        }
        return !(ip instanceof Inet6Address && (ip.getAddress()[0] & 0xfe) == 0xfc); // fc00::/7
    }
}
