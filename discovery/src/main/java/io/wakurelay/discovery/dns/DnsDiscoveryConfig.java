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
            List.of(ipv4(1, 1, 1, 1), ipv4(1, 0, 0, 1)), Duration.ofSeconds(5), EnrTreeLimits.DEFAULTS,
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

    private static InetSocketAddress ipv4(int a, int b, int c, int d) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d}),
                    53);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are an IPv4 address
        }
    }

    public boolean enabled() {
        return !urls.isEmpty();
    }

    /** The name servers as {@code --dns-discovery-name-server} takes them, comma-separated. */
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
