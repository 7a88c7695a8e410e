package io.wakurelay.node.config;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.dns.EnrTreeUrl;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.FilterConfig;
import io.wakurelay.services.FilterConfigBuilder;
import io.wakurelay.services.LightpushConfig;
import io.wakurelay.services.LightpushConfigBuilder;
import io.wakurelay.services.PeerExchangeConfig;
import io.wakurelay.services.PeerExchangeConfigBuilder;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.StoreClientConfig;
import io.wakurelay.services.StoreServiceConfig;
import io.wakurelay.services.StoreServiceConfigBuilder;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Waku services' part of the node's configuration (store, lightpush, filter, peer exchange), from its command line. */
final class ServiceOptions {
    /** The protocols {@code --rate-limit} names, as nwaku names them. */
    private static final List<String> RATE_LIMITED = List.of("store", "lightpush", "filter", "px");

    private ServiceOptions() {
    }

    static ServicesConfig services(NodeOptions o) {
        Map<String, RateLimit> rates = rateLimits(o.rateLimits);
        StoreServiceConfigBuilder store = StoreServiceConfig.builder();
        LightpushConfigBuilder lightpush = LightpushConfig.builder();
        FilterConfigBuilder filter = FilterConfig.builder()
                .subscriptionTimeout(Duration.ofSeconds(o.filterSubscriptionTimeout))
                .maxPeersToServe(o.filterMaxPeersToServe)
                .maxCriteriaPerPeer(o.filterMaxCriteria);
        if (rates.containsKey("store")) {
            store.rateLimit(rates.get("store"));
        }
        if (rates.containsKey("lightpush")) {
            lightpush.rateLimit(rates.get("lightpush"));
        }
        if (rates.containsKey("filter")) {
            filter.rateLimit(rates.get("filter"));
        }
        PeerExchangeConfigBuilder px = PeerExchangeConfig.builder();
        if (rates.containsKey("px")) {
            px.rateLimit(rates.get("px"));
        }
        return new ServicesConfig(o.store ? store.build() : null, o.lightpush ? lightpush.build() : null,
                o.filter ? filter.build() : null, StoreClientConfig.DEFAULTS, peerExchange(o, px.build()));
    }

    /** Peer exchange: the server, the node asked, and the records of the static peers given as ENRs. */
    static PeerExchangeSettings peerExchange(NodeOptions o, PeerExchangeConfig server) {
        List<Enr> records = new ArrayList<>();
        for (String s : o.staticNodes) {
            if (s.strip().startsWith(Enr.TEXT_PREFIX)) {
                records.add(NodeOptions.option("--staticnode", () -> Enr.parse(s)));
            }
        }
        Multiaddr node = o.peerExchangeNode == null || o.peerExchangeNode.isBlank() ? null
                : NodeOptions.option("--peer-exchange-node", () -> RelayConfigs.staticPeer(o.peerExchangeNode));
        return PeerExchangeSettings.DEFAULTS.toBuilder().server(o.peerExchange ? server : null).node(node)
                .staticRecords(records).dns(dnsDiscovery(o)).discv5(o.discv5.settings(o::shifted)).build();
    }

    /** DNS discovery: on with a tree URL (nwaku); the name servers given, else the record's defaults. */
    static DnsDiscoveryConfig dnsDiscovery(NodeOptions o) {
        List<EnrTreeUrl> urls = new ArrayList<>();
        for (String s : o.dnsDiscoveryUrls) {
            if (!s.isBlank()) {
                urls.add(NodeOptions.option("--dns-discovery-url", () -> EnrTreeUrl.parse(s)));
            }
        }
        // --dns-discovery itself changes nothing, as in nwaku, which deprecates it: the URL turns DNS discovery on
        DnsDiscoveryConfig dns = DnsDiscoveryConfig.DEFAULTS.toBuilder().urls(urls).build();
        if (!o.dnsDiscoveryNameServers.isEmpty()) {
            List<InetSocketAddress> servers = new ArrayList<>();
            for (String s : o.dnsDiscoveryNameServers) {
                servers.add(NodeOptions.option("--dns-discovery-name-server", () -> DnsDiscoveryConfig.nameServer(s)));
            }
            dns = dns.toBuilder().nameServers(servers).build();
        }
        return dns;
    }

    /** {@code store:30/1s}, {@code lightpush:none}, {@code px:10/1m}, or a bare rate for all four; a later entry overrides an earlier. */
    static Map<String, RateLimit> rateLimits(List<String> entries) {
        Map<String, RateLimit> rates = new LinkedHashMap<>();
        for (String entry : entries) {
            String text = entry.trim();
            int colon = text.indexOf(':');
            if (colon < 0) {
                RateLimit all = RateLimit.parse(text);
                RATE_LIMITED.forEach(p -> rates.put(p, all));
                continue;
            }
            String protocol = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (!RATE_LIMITED.contains(protocol)) {
                throw new IllegalArgumentException("'" + protocol + "' is not a rate-limited protocol; use one of "
                        + String.join(", ", RATE_LIMITED));
            }
            rates.put(protocol, RateLimit.parse(text.substring(colon + 1).trim()));
        }
        return rates;
    }
}
