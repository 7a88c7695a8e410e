package io.wakurelay.discovery.discv5;

import java.net.InetAddress;

/**
 * What shares one packet budget: an IPv4 address, or the /64 of an IPv6 address (an IPv4-mapped IPv6 address is its
 * IPv4 address). The port never counts: one host opening 512 sockets is one source, as in sigp/discv5, which limits
 * by IP; an IPv6 host has a /64 to itself, the smallest prefix a provider hands out.
 *
 * @param v6   whether {@code bits} are the first 64 bits of an IPv6 address, else the 32 bits of an IPv4 address
 * @param bits the address or prefix
 */
record SourcePrefix(boolean v6, long bits) {

    static SourcePrefix of(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length == 4) {
            return new SourcePrefix(false, ipv4(b, 0));
        }
        if (isV4Mapped(b)) {
            return new SourcePrefix(false, ipv4(b, 12));
        }
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits = bits << 8 | (b[i] & 0xff);
        }
        return new SourcePrefix(true, bits);
    }

    private static long ipv4(byte[] b, int from) {
        long bits = 0;
        for (int i = from; i < from + 4; i++) {
            bits = bits << 8 | (b[i] & 0xff);
        }
        return bits;
    }

    private static boolean isV4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }
}
