package io.wakurelay.discovery.dns;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * DNS discovery in a node (docs/discovery.md): the trees read, the name servers asked, and when.
 *
 * @param urls          the trees ({@code --dns-discovery-url}); empty: DNS discovery is off
 * @param nameServers   asked in turn ({@code --dns-discovery-name-server}); nwaku's default, Cloudflare's 1.1.1.1
 *                      and 1.0.0.1, port 53
 * @param queryTimeout  one TXT query
 * @param limits        one sync of one tree
 * @param retryInterval after a sync that found no peer, the next one comes this much later (nwaku: 30 s)
 * @param syncInterval  after a sync that found peers, the tree is read again this much later (nwaku reads it only
 *                      until one sync succeeds; reading it again lets a running node learn a tree's new peers)
 */
@RecordBuilder
public record DnsDiscoveryConfig(List<EnrTreeUrl> urls, List<InetSocketAddress> nameServers, Duration queryTimeout,
                                 EnrTreeLimits limits, Duration retryInterval, Duration syncInterval) {
    public static final DnsDiscoveryConfig DEFAULTS = new DnsDiscoveryConfig(List.of(),
            List.of(nameServer("1.1.1.1"), nameServer("1.0.0.1")), Duration.ofSeconds(5), EnrTreeLimits.DEFAULTS,
            Duration.ofSeconds(30), Duration.ofMinutes(30));

    public DnsDiscoveryConfig {
        urls = List.copyOf(urls);
        nameServers = List.copyOf(nameServers);
        Objects.requireNonNull(limits, "limits");
        if (nameServers.isEmpty()) {
            throw new IllegalArgumentException("DNS discovery needs at least one name server");
        }
        for (Duration d : List.of(queryTimeout, retryInterval, syncInterval)) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("DNS discovery's intervals and timeout must be positive, was " + d);
            }
        }
    }

    public boolean enabled() {
        return !urls.isEmpty();
    }

    /**
     * A name server as an IP address, with {@code :port} (IPv6 in brackets) when it is not 53; no host names (they
     * would need a resolver to find the resolver).
     */
    public static InetSocketAddress nameServer(String text) {
        String s = text.strip();
        String host = s;
        int port = 53;
        int colon = s.lastIndexOf(':');
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("not an IP address: " + text);
            }
            host = s.substring(1, close);
            if (close + 1 < s.length()) {
                if (s.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("not an IP address[:port]: " + text);
                }
                port = port(s.substring(close + 2), text);
            }
        } else if (colon > 0 && s.indexOf(':') == colon) {
            host = s.substring(0, colon);
            port = port(s.substring(colon + 1), text);
        }
        // literals only: InetAddress would otherwise look a name up, through the system's resolver
        if (!host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") && !(host.contains(":") && host.matches("[0-9A-Fa-f:.]+"))) {
            throw new IllegalArgumentException("a name server is an IP address, not a name: " + text);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + text, e);
        }
    }

    private static int port(String text, String whole) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException("not a port in " + whole);
    }

    /** The name servers as {@link #nameServer} reads them, comma-separated. */
    public static String format(List<InetSocketAddress> servers) {
        return servers.stream().map(a -> {
            String ip = a.getAddress().getHostAddress();
            String host = ip.contains(":") ? "[" + ip + "]" : ip;
            return a.getPort() == 53 ? ip : host + ":" + a.getPort();
        }).collect(Collectors.joining(","));
    }

    public DnsDiscoveryConfigBuilder toBuilder() {
        return DnsDiscoveryConfigBuilder.builder(this);
    }
}
