package io.wakurelay.node;

import io.wakurelay.node.config.PeerExchangeSettings;
import io.wakurelay.node.config.PeerManagerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.dns.DnsDiscoveryMetrics;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.PeerRecords;
import io.wakurelay.node.peers.Origin;
import io.wakurelay.node.peers.PeerManager;
import io.wakurelay.p2p.Host;
import io.wakurelay.relay.Relay;
import io.wakurelay.services.PeerExchangeClient;
import io.wakurelay.services.PeerExchangeLoop;
import io.wakurelay.services.PeerExchangeService;

/**
 * Peer exchange and the peer manager wired into the node: one record cache, filled with the records given as static
 * peers and with the records of the peers the {@link PeerManager} connects to; the server answers from it (records
 * of peers connected at the time of the request). DNS discovery, the peer exchange loop ({@code
 * --peer-exchange-node}) and discv5 offer what they find to the manager, which alone dials; the loop and DNS
 * discovery start once the static peers are being dialled.
 */
final class NodePeerExchange {
    private final PeerExchangeSettings settings;
    private final PeerExchangeClient client;
    private final StartedComponents components;
    private final NodeDnsDiscovery dns;
    private final PeerRecords records;
    private final PeerOrigins origins;
    private final PeerManager manager;

    private NodePeerExchange(PeerExchangeSettings settings, PeerExchangeClient client, StartedComponents components,
            NodeDnsDiscovery dns, PeerRecords records, PeerOrigins origins, PeerManager manager) {
        this.settings = settings;
        this.records = records;
        this.origins = origins;
        this.client = client;
        this.components = components;
        this.dns = dns;
        this.manager = manager;
    }

    /**
     * Starts the server (when on), the client and the peer manager, each added to {@code components}.
     *
     * @param relay null on a node without relay
     */
    static NodePeerExchange start(PeerExchangeSettings settings, PeerManagerConfig managerConfig, int maxConnections,
            Host host, Relay relay, int clusterId, MeterRegistry registry, StartedComponents components) {
        PeerRecords records = new PeerRecords(settings.cacheCapacity());
        PeerOrigins origins = new PeerOrigins();
        Gauge.builder("waku.peer.origins", origins, PeerOrigins::size)
                .description("peers whose origin (how the node found them) is noted for /admin/v1/peers; at most 4,096, "
                        + "the one noted longest ago forgotten first").register(registry);
        for (Enr record : settings.staticRecords()) {
            records.offer(record);
        }
        if (settings.server() != null) {
            PeerExchangeService server = PeerExchangeService.start(settings.server(), host, records, clusterId, registry);
            components.add("peer exchange service", server, server::shutdown, server);
        }
        PeerExchangeClient client = PeerExchangeClient.start(settings.client(), host, records, clusterId, registry);
        components.add("peer exchange client", client, client::shutdown, client);
        PeerManager manager = PeerManager.start(managerConfig, maxConnections, host, relay, registry,
                new PeerManager.Listener() {
                    @Override
                    public void connected(Enr record, Origin origin) {
                        origins.found(record.peerId(), origin.nwakuName());
                        if (origin == Origin.PEER_EXCHANGE) {
                            client.dialled(record, true); // counted and kept there
                        } else {
                            records.offer(record);
                        }
                    }

                    @Override
                    public void failed(Enr record, Origin origin) {
                        if (origin == Origin.PEER_EXCHANGE) {
                            client.dialled(record, false);
                        }
                    }
                });
        components.add("peer manager", manager, manager::shutdown, manager);
        NodeDnsDiscovery dns = null;
        // registered in every node, as nwaku declares them (zero while DNS discovery is off)
        DnsDiscoveryMetrics dnsMetrics = components.add("DNS discovery metrics", new DnsDiscoveryMetrics(registry));
        if (settings.dns().enabled()) {
            dns = NodeDnsDiscovery.create(settings.dns(), host, manager, clusterId, dnsMetrics);
            components.add("DNS discovery", dns, dns::shutdown, dns);
        }
        return new NodePeerExchange(settings, client, components, dns, records, origins, manager);
    }

    /** How the peers the manager connected to were found, for /admin/v1/peers. */
    PeerOrigins origins() {
        return origins;
    }

    /** The one dialler of discovered peers. */
    PeerManager manager() {
        return manager;
    }

    /** The record cache the server answers from. */
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
            PeerExchangeLoop loop = PeerExchangeLoop.offering(client, settings.node(),
                    found -> manager.offer(found, Origin.PEER_EXCHANGE));
            components.add("peer exchange loop", loop, loop::shutdown, loop);
        }
    }
}
