package io.wakurelay.node;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.Discovery;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.PeerExchangeSettings;
import io.wakurelay.node.peers.PeerManager;
import io.wakurelay.p2p.Host;
import io.wakurelay.relay.Relay;
import io.wakurelay.services.peerexchange.PeerExchangeClient;
import io.wakurelay.services.peerexchange.PeerExchangeService;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import reactor.core.publisher.Mono;

/**
 * Discovery wired into the node (docs/discovery.md): peer exchange's wire (services' server and client), discovery
 * itself ({@link Discovery}: the node's record, the record cache, the finders) and the {@link PeerManager}, which is
 * discovery's record sink and alone dials. The server answers from discovery's cache; the client is how discovery
 * asks the peer exchange node; the manager tells discovery which offered peers it connected (their records join the
 * cache) and notes how each was found, for /admin/v1/peers ({@link PeerOrigins}). The finders start last
 * ({@link #startFinders}), once the static peers are being dialled, and so stop first.
 */
final class NodeDiscovery {
    private final Discovery discovery;
    private final PeerOrigins origins;
    private final PeerManager manager;
    private final StartedComponents components;

    private NodeDiscovery(Discovery discovery, PeerOrigins origins, PeerManager manager, StartedComponents components) {
        this.discovery = discovery;
        this.origins = origins;
        this.manager = manager;
        this.components = components;
    }

    /**
     * Starts the peer exchange client, discovery (so the services its record names must be started), the server
     * (when on) and the peer manager, each added to {@code components}.
     *
     * @param relay         null on a node without relay
     * @param recordUdpPort the UDP port the node's record names for the one discv5 bound (the gateway's, when
     *                      {@code --nat} maps it)
     */
    static NodeDiscovery start(NodeConfig config, Host host, Relay relay, IntUnaryOperator recordUdpPort,
            MeterRegistry registry, StartedComponents components) {
        PeerExchangeSettings px = config.services().peerExchange();
        PeerExchangeClient client = PeerExchangeClient.start(px.client(), host, registry);
        components.add("peer exchange client", client, client::shutdown, client);
        Set<String> topics = relay == null ? Set.copyOf(config.relay().pubsubTopics()) : relay.subscriptions();
        InetSocketAddress listen = config.host().listenAddress();
        Discovery discovery = Discovery.start(config.discovery(), host, listen == null ? null : listen.getAddress(),
                config.dataDir(), config.relay().clusterId(), topics, client::request, recordUdpPort, registry);
        components.add("discovery", discovery, discovery::shutdown, discovery);
        if (px.server() != null) {
            PeerExchangeService server = PeerExchangeService.start(px.server(), host, discovery::recordsFor, registry);
            components.add("peer exchange service", server, server::shutdown, server);
        }
        PeerOrigins origins = new PeerOrigins();
        Gauge.builder("waku.peer.origins", origins, PeerOrigins::size)
                .description("peers whose origin (how the node found them) is noted for /admin/v1/peers; at most 4,096, "
                        + "the one noted longest ago forgotten first").register(registry);
        PeerManager manager = PeerManager.start(config.peerManager(), config.host().maxConnections(), host, relay,
                registry, new PeerManager.Listener() {
                    @Override
                    public void connected(Enr record, Origin origin) {
                        origins.found(record.peerId(), origin.nwakuName());
                        discovery.connected(record, origin);
                    }

                    @Override
                    public void failed(Enr record, Origin origin) {
                        discovery.dialFailed(record, origin);
                    }
                });
        components.add("peer manager", manager, manager::shutdown, manager);
        return new NodeDiscovery(discovery, origins, manager, components);
    }

    /** The node's record, or null when its key cannot sign one. */
    Enr enr() {
        return discovery.record();
    }

    /** How the peers the manager connected to were found, for /admin/v1/peers. */
    PeerOrigins origins() {
        return origins;
    }

    /** The one dialler of discovered peers. */
    PeerManager manager() {
        return manager;
    }

    /** Starts the finders that are configured; they stop before everything started so far. */
    void startFinders() {
        discovery.startFinders(manager);
        components.add("discovery finders", discovery, grace -> Mono.fromRunnable(discovery::stopFinders),
                discovery::stopFinders);
    }
}
