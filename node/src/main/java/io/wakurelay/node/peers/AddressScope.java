package io.wakurelay.node.peers;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;

/**
 * Where an IP address reaches, in go-libp2p's classes (go-multiaddr's {@code manet}: {@code Private4},
 * {@code Private6}, {@code Unroutable4}, {@code Unroutable6}, and IPv6's global unicast 2000::/3 and NAT64 as
 * public), with loopback apart from the other private ranges: a record that names 127.0.0.1 names the dialler's own
 * machine.
 */
enum AddressScope {
    /** Anything else: the Internet. */
    PUBLIC,
    /** 10/8, 100.64/10 (carrier-grade NAT), 172.16/12, 192.168/16, 169.254/16 (link-local); fc00::/7, fe80::/10. */
    PRIVATE,
    /** 127/8, ::1. */
    LOOPBACK,
    /**
     * 0/8, 192.0.0/26, 192.0.2/24, 192.88.99/24, 198.18/15, 198.51.100/24, 203.0.113/24, multicast 224/4, 240/4,
     * 255.255.255.255; ff00::/8, 2001:db8::/32 and any IPv6 outside 2000::/3 and NAT64: never dialled.
     */
    UNROUTABLE;

    private record Net(byte[] prefix, int bits) {
        static Net of(String cidr) {
            int slash = cidr.indexOf('/');
            return new Net(io.netty.util.NetUtil.createByteArrayFromIpAddressString(cidr.substring(0, slash)),
                    Integer.parseInt(cidr.substring(slash + 1)));
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                if ((address[i / 8] & mask) != (prefix[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final List<Net> LOOPBACK_NETS = nets("127.0.0.0/8", "::1/128");
    private static final List<Net> PRIVATE_NETS = nets("10.0.0.0/8", "100.64.0.0/10", "172.16.0.0/12",
            "192.168.0.0/16", "169.254.0.0/16", "fc00::/7", "fe80::/10");
    private static final List<Net> UNROUTABLE_NETS = nets("0.0.0.0/8", "192.0.0.0/26", "192.0.2.0/24",
            "192.88.99.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
            "255.255.255.255/32", "ff00::/8", "2001:db8::/32");
    private static final List<Net> PUBLIC6_NETS = nets("2000::/3", "64:ff9b::/96", "64:ff9b:1::/48");

    private static List<Net> nets(String... cidrs) {
        return java.util.Arrays.stream(cidrs).map(Net::of).toList();
    }

    /** The metric label ({@code waku_peer_manager_addresses_refused_total}). */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static AddressScope of(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length == 16 && isV4Mapped(b)) {
            b = java.util.Arrays.copyOfRange(b, 12, 16);
        }
        if (in(LOOPBACK_NETS, b)) {
            return LOOPBACK;
        }
        if (in(PRIVATE_NETS, b)) {
            return PRIVATE;
        }
        if (in(UNROUTABLE_NETS, b) || (b.length == 16 && !in(PUBLIC6_NETS, b))) {
            return UNROUTABLE;
        }
        return PUBLIC;
    }

    static boolean isIpv4(InetAddress address) {
        return address instanceof Inet4Address || isV4Mapped(address.getAddress());
    }

    private static boolean in(List<Net> nets, byte[] address) {
        for (Net net : nets) {
            if (net.contains(address)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isV4Mapped(byte[] b) {
        if (b.length != 16) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }
}
