package io.wakurelay.p2p.nat;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The gateway of the default IPv4 route, where NAT-PMP is asked (libnatpmp's {@code getdefaultgateway}): read from
 * Linux's {@code /proc/net/route} (the network namespace's own), as libnatpmp reads it. Elsewhere there is none, and
 * NAT-PMP is not tried.
 */
final class DefaultRoute {
    static final Path ROUTES = Path.of("/proc/net/route");
    private static final int RTF_UP = 0x1;
    private static final int RTF_GATEWAY = 0x2;

    private DefaultRoute() {
    }

    static InetAddress gateway() throws NatException {
        try {
            return gateway(Files.readAllLines(ROUTES));
        } catch (IOException e) {
            throw new NatException("no default gateway known: cannot read " + ROUTES + " (" + e.getMessage() + ")", e);
        }
    }

    /** {@code Iface Destination Gateway Flags RefCnt Use Metric Mask …}, addresses in little-endian hex. */
    static InetAddress gateway(List<String> routes) throws NatException {
        for (String line : routes.subList(Math.min(1, routes.size()), routes.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 8 || !f[1].equals("00000000") || !f[7].equals("00000000")) {
                continue;
            }
            try {
                int flags = Integer.parseInt(f[3], 16);
                if ((flags & (RTF_UP | RTF_GATEWAY)) != (RTF_UP | RTF_GATEWAY)) {
                    continue;
                }
                long le = Long.parseLong(f[2], 16);
                byte[] ip = {(byte) le, (byte) (le >> 8), (byte) (le >> 16), (byte) (le >> 24)};
                return InetAddress.getByAddress(ip);
            } catch (NumberFormatException | IOException e) {
                // a line we cannot read: the next may be the route
            }
        }
        throw new NatException("no default IPv4 route with a gateway in " + ROUTES);
    }
}
