package io.wakurelay.node.config;

import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.dns.EnrTreeUrl;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
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

    /** DNS discovery: on with a tree URL (nwaku); the name servers given, else the record's defaults. */
    DnsDiscoveryConfig config() {
        List<EnrTreeUrl> urls = new ArrayList<>();
        for (String s : dnsDiscoveryUrls) {
            if (!s.isBlank()) {
                urls.add(NodeOptions.option("--dns-discovery-url", () -> EnrTreeUrl.parse(s)));
            }
        }
        // --dns-discovery itself changes nothing, as in nwaku, which deprecates it: the URL turns DNS discovery on
        DnsDiscoveryConfig dns = DnsDiscoveryConfig.DEFAULTS.toBuilder().urls(urls).build();
        if (!dnsDiscoveryNameServers.isEmpty()) {
            List<InetSocketAddress> servers = new ArrayList<>();
            for (String s : dnsDiscoveryNameServers) {
                servers.add(NodeOptions.option("--dns-discovery-name-server", () -> DnsDiscoveryConfig.nameServer(s)));
            }
            dns = dns.toBuilder().nameServers(servers).build();
        }
        return dns;
    }
}
