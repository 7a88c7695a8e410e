package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.PeerExchangeClientConfig;
import io.wakurelay.services.PeerExchangeConfig;

import java.util.List;
import java.util.Objects;

/**
 * Peer exchange in the node (docs/discovery.md): the server, the client and where the records it serves come from.
 *
 * @param server         the server ({@code --peer-exchange}); null: off
 * @param client         how the node asks; the client always runs (as nwaku mounts it), the loop only with a node
 * @param node           the node asked at start and every {@link PeerExchangeClientConfig#interval()}
 *                       ({@code --peer-exchange-node}); null: none
 * @param staticRecords  the records given as static peers ({@code --staticnode enr:…}): served while connected
 * @param cacheCapacity  the most records of other nodes kept (the oldest offered goes first)
 * @param dns            DNS discovery ({@code --dns-discovery-url}): its peers are dialled and their records kept in
 *                       the same cache; off without a tree URL
 * @param discv5         discv5 ({@code --discv5-discovery}): its finds are dialled and kept the same way
 */
@RecordBuilder
public record PeerExchangeSettings(PeerExchangeConfig server, PeerExchangeClientConfig client, Multiaddr node,
                                   List<Enr> staticRecords, int cacheCapacity,
                                   DnsDiscoveryConfig dns, Discv5Settings discv5) {
    /** Served, no node asked; 500 records of at most 300 bytes. */
    public static final PeerExchangeSettings DEFAULTS = new PeerExchangeSettings(PeerExchangeConfig.DEFAULTS,
            PeerExchangeClientConfig.DEFAULTS, null, List.of(), 500, DnsDiscoveryConfig.DEFAULTS,
            Discv5Settings.DEFAULTS);

    public PeerExchangeSettings {
        Objects.requireNonNull(client, "client");
        staticRecords = List.copyOf(staticRecords);
        Objects.requireNonNull(dns, "dns");
        Objects.requireNonNull(discv5, "discv5");
        if (cacheCapacity < 1) {
            throw new IllegalArgumentException("cacheCapacity must be positive, was " + cacheCapacity);
        }
        if (node != null && node.peerId().isEmpty()) {
            throw new IllegalArgumentException("the peer exchange node's address must end in /p2p/<peer id>: " + node);
        }
    }

    public PeerExchangeSettingsBuilder toBuilder() {
        return PeerExchangeSettingsBuilder.builder(this);
    }
}
