package io.wakurelay.node.config;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.dns.EnrTreeUrl;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/** DNS discovery's options (EIP-1459; nwaku's names), a picocli mixin of {@link NodeOptions}. */
public final class DnsDiscoveryOptions {
    @Option(names = "--dns-discovery", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "accepted as in nwaku, which deprecates it: DNS discovery (EIP-1459) is on whenever "
                    + "--dns-discovery-url is given, and off without one whatever this flag says")
    boolean dnsDiscovery;

    @Option(names = "--dns-discovery-url", paramLabel = "URL", split = ",",
            description = "tree of peers to read at start, again 30 s later while it names none, else every 30 min "
                    + "(enrtree://<base32 key>@<domain>; repeatable); its peers are dialled (within --max-connections) "
                    + "and their ENRs served by peer exchange")
    List<String> dnsDiscoveryUrls = new ArrayList<>();

    @Option(names = "--dns-discovery-name-server", paramLabel = "IP[:PORT]", split = ",",
            description = "name server DNS discovery asks, the next one only when one fails (repeatable; default "
                    + "1.1.1.1 and 1.0.0.1, as nwaku's --dns-addrs-name-server)")
    List<String> dnsDiscoveryNameServers = new ArrayList<>();

    /** {@code discovery} with DNS discovery: on with a tree URL (nwaku); the name servers given, else the defaults. */
    DiscoveryConfig discovery(DiscoveryConfig discovery) {
        List<EnrTreeUrl> urls = new ArrayList<>();
        for (String s : dnsDiscoveryUrls) {
            if (!s.isBlank()) {
                urls.add(NodeOptions.option("--dns-discovery-url", () -> EnrTreeUrl.parse(s)));
            }
        }
        List<InetSocketAddress> servers = new ArrayList<>();
        for (String s : dnsDiscoveryNameServers) {
            servers.add(NodeOptions.option("--dns-discovery-name-server", () -> nameServer(s)));
        }
        // --dns-discovery itself changes nothing, as in nwaku, which deprecates it: the URL turns DNS discovery on
        var dns = discovery.dns().toBuilder().urls(urls);
        if (!servers.isEmpty()) {
            dns.nameServers(servers);
        }
        return discovery.toBuilder().dns(dns.build()).build();
    }

    /**
     * A name server as an IP address, with {@code :port} (IPv6 in brackets) when it is not 53; no host names (they
     * would need a resolver to find the resolver).
     */
    static InetSocketAddress nameServer(String text) {
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
}
