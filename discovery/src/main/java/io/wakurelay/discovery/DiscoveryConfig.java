package io.wakurelay.discovery;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peerexchange.PeerExchangeDiscoveryConfig;

import java.util.List;
import java.util.Objects;

/**
 * Discovery in a node (docs/discovery.md): the record cache peer exchange serves from, and the three finders.
 *
 * @param staticRecords the records given as static peers ({@code --staticnode enr:…}): in the cache from the start,
 *                      served while their peers are connected
 * @param cacheCapacity the most records of other nodes kept (the one offered longest ago goes first)
 * @param peerExchange  the node asked by peer exchange ({@code --peer-exchange-node}); off without one
 * @param dns           DNS discovery ({@code --dns-discovery-url}); off without a tree URL
 * @param discv5        discv5 ({@code --discv5-discovery})
 */
@RecordBuilder
public record DiscoveryConfig(List<Enr> staticRecords, int cacheCapacity, PeerExchangeDiscoveryConfig peerExchange,
                              DnsDiscoveryConfig dns, Discv5DiscoveryConfig discv5) {
    /** No finder on; 500 records of at most 300 bytes. */
    public static final DiscoveryConfig DEFAULTS = new DiscoveryConfig(List.of(), 500,
            PeerExchangeDiscoveryConfig.DEFAULTS, DnsDiscoveryConfig.DEFAULTS, Discv5DiscoveryConfig.DEFAULTS);

    public DiscoveryConfig {
        staticRecords = List.copyOf(staticRecords);
        Objects.requireNonNull(peerExchange, "peerExchange");
        Objects.requireNonNull(dns, "dns");
        Objects.requireNonNull(discv5, "discv5");
        if (cacheCapacity < 1) {
            throw new IllegalArgumentException("cacheCapacity must be positive, was " + cacheCapacity);
        }
    }

    /** The UDP port discv5 listens on, for the port mapping at the gateway: 0 when discv5 is off or takes a free port. */
    public int discv5UdpPort() {
        return discv5.enabled() ? discv5.udpPort() : 0;
    }

    public DiscoveryConfigBuilder toBuilder() {
        return DiscoveryConfigBuilder.builder(this);
    }
}
