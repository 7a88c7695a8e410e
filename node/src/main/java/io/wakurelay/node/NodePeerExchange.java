package io.wakurelay.node;

import io.wakurelay.node.config.PeerExchangeSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.dns.DnsDiscoveryMetrics;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.p2p.Host;
import io.wakurelay.services.PeerExchangeClient;
import io.wakurelay.services.PeerExchangeLoop;
import io.wakurelay.services.PeerExchangeService;

/**
 * Peer exchange wired into the node: one record cache, filled with the records given as static peers and with what
 * the client finds and reaches; the server answers from it (records of peers connected at the time of the request);
 * the loop asks {@code --peer-exchange-node}, and DNS discovery reads its trees, once the static peers are being
 * dialled; DNS discovery's peers, once connected, have their records kept in the same cache.
 */
final class NodePeerExchange {
    private final PeerExchangeSettings settings;
    private final PeerExchangeClient client;
    private final StartedComponents components;
    private final NodeDnsDiscovery dns;
    private final PeerRecords records;
    private final PeerOrigins origins;

    private NodePeerExchange(PeerExchangeSettings settings, PeerExchangeClient client, StartedComponents components,
            NodeDnsDiscovery dns, PeerRecords records, PeerOrigins origins) {
        this.settings = settings;
        this.records = records;
        this.origins = origins;
        this.client = client;
        this.components = components;
        this.dns = dns;
    }

    /** Starts the server (when on) and the client, each added to {@code components}. */
    static NodePeerExchange start(PeerExchangeSettings settings, Host host, int clusterId, MeterRegistry registry,
            StartedComponents components) {
        PeerRecords records = new PeerRecords(settings.cacheCapacity());
        PeerOrigins origins = new PeerOrigins();
        for (Enr record : settings.staticRecords()) {
            records.offer(record);
        }
        if (settings.server() != null) {
            PeerExchangeService server = PeerExchangeService.start(settings.server(), host, records, clusterId, registry);
            components.add("peer exchange service", server, server::shutdown, server);
        }
        PeerExchangeClient client = PeerExchangeClient.start(settings.client(), host, records, clusterId, registry);
        components.add("peer exchange client", client, client::shutdown, client);
        NodeDnsDiscovery dns = null;
        // registered in every node, as nwaku declares them (zero while DNS discovery is off)
        DnsDiscoveryMetrics dnsMetrics = components.add("DNS discovery metrics", new DnsDiscoveryMetrics(registry));
        if (settings.dns().enabled()) {
            dns = NodeDnsDiscovery.create(settings.dns(), host, records, origins, clusterId, dnsMetrics);
            components.add("DNS discovery", dns, dns::shutdown, dns);
        }
        return new NodePeerExchange(settings, client, components, dns, records, origins);
    }

    /** How the peers the discoveries dialled were found, for /admin/v1/peers. */
    PeerOrigins origins() {
        return origins;
    }

    /** The record cache the server answers from (discv5's connected finds are kept there too). */
    PeerRecords records() {
        return records;
    }

    /** Hands the records each DNS tree read names to {@code listener} (discv5 takes them as bootstrap nodes). */
    void onDnsFinds(java.util.function.Consumer<java.util.List<Enr>> listener) {
        if (dns != null) {
            dns.onFound(listener);
        }
    }

    /** Starts asking the peer exchange node and reading the DNS trees, when they are configured. */
    void startLoop() {
        if (dns != null) {
            dns.start();
        }
        if (settings.node() != null) {
            PeerExchangeLoop loop = PeerExchangeLoop.start(client, settings.node(),
                    connected -> connected.forEach(r -> origins.found(r.peerId(), PeerOrigins.PEER_EXCHANGE)));
            components.add("peer exchange loop", loop, loop::shutdown, loop);
        }
    }
}
