package io.wakurelay.node;

import io.wakurelay.node.config.NodeVersion;
import io.wakurelay.node.status.NodeStatus;
import io.wakurelay.node.status.FilterSubscriberView;
import io.wakurelay.node.status.PeerView;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.RetentionText;
import io.wakurelay.node.config.ServicesConfig;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.backends.ArchiveBackends;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.node.config.HostPort;
import io.wakurelay.node.metrics.ConnectedPeers;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.metrics.MetricsServer;
import io.wakurelay.node.metrics.NodeMetrics;
import io.wakurelay.node.rest.FilterMessageCache;
import io.wakurelay.node.rest.LiveStreams;
import io.wakurelay.node.rest.LocalDelivery;
import io.wakurelay.node.rest.MessageJson;
import io.wakurelay.node.rest.RestMetrics;
import io.wakurelay.node.rest.RestServer;
import io.wakurelay.node.rest.TopicCache;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.crypto.NodeKey;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.Topics;
import io.wakurelay.protocol.WallClock;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.Relay;
import io.wakurelay.rln.validation.RlnRelay;
import io.wakurelay.services.filter.FilterClient;
import io.wakurelay.services.filter.FilterService;
import io.wakurelay.services.lightpush.LightpushClient;
import io.wakurelay.services.lightpush.LightpushService;
import io.wakurelay.services.lightpush.ProofSource;
import io.wakurelay.services.store.StoreClient;
import io.wakurelay.services.store.StoreQueries;
import io.wakurelay.services.store.StoreService;
import reactor.core.publisher.Mono;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One running node: a libp2p host with Waku relay on it, and the Waku services (Store v3, lightpush, filter, peer
 * exchange) beside it; the relay's accepted messages flow through {@code AcceptedMessages} to filter subscribers, local
 * REST consumers, the taps and into the archive, in that order and at the archive's pace; REST and
 * metrics servers on top. The components start in the order below and {@link #close()} stops them in reverse
 * ({@link StartedComponents}), the order that loses nothing: REST stops taking requests (503 while the rest stops),
 * the services stop serving, the relay stops taking messages and hands over what it accepted, the host closes its
 * connections, the archive commits what it was handed and RocksDB closes; the metrics server answers to the end.
 */
public final class WakuNode implements NodeStatus, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WakuNode.class);
    public static final String VERSION = NodeVersion.VERSION;

    private final NodeConfig config;
    private final PathCounters counters = new PathCounters();
    private final StartedComponents components = new StartedComponents();
    private final NodeMetrics metrics;
    private final MetricsServer metricsServer;
    private final MessageArchive archive;
    private final ArchivePipeline pipeline;
    private final Host host;
    private final Relay relay;
    private final RlnRelay rln;
    private final LightpushService lightpush;
    private final FilterService filter;
    private final RestServer rest;
    private final NodeDiscovery discovery;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set once each static peer's first dial has ended: /health says INITIALIZING before, as nwaku's. */
    private volatile boolean initialized;
    private final AcceptedMessages accepted;

    private WakuNode(NodeConfig config) {
        this.config = config;
        try {
            this.metrics = components.add("metrics registry", new NodeMetrics(counters, VERSION));
            MetricsConfig metricsConfig = config.metrics();
            this.metricsServer = metricsConfig == null ? null : components.add("metrics server",
                    ServerPorts.metrics(metricsConfig, metrics::scrape));
            // REST's port is held from here until REST binds it: a clash stops the start before the node is dialable
            ServerPorts.Reservation restPort = components.add("REST port", ServerPorts.reserve(config.rest()));
            if (metricsServer != null) {
                metricsServer.bind(metrics.registry());
            }
            PrivateKey key = config.nodeKey() != null ? config.nodeKey() : NodeKey.loadOrCreate(config.dataDir());
            // without relay nothing would reach an archive (an edge node asks --storenode instead)
            this.archive = config.archive() == null || !config.edge().relay() ? null
                    : components.add("archive", ArchiveBackends.open(named(config.archive(), key), metrics.registry()));
            // added right after the archive, so that it stops after the relay and the host (the relay feeds it) and
            // before the archive closes (it feeds the archive); it is connected to the relay further down
            this.pipeline = new ArchivePipeline(archive);
            components.add("archive pipeline", pipeline, pipeline::shutdown, () -> { });
            // --nat=any|upnp|pmp: the ports mapped before the host listens (it announces the gateway's address), the
            // mappings deleted after it closes
            NodeNat nat = NodeNat.start(config, metrics.registry(), components);
            // static peers are dialled once the relay listens for connections, so that it sees them from the start
            Host host = Host.start(nat.announcing(config.host()).toBuilder().staticPeers(List.of()).build(), key,
                    metrics.registry());
            this.host = components.add("p2p host", host, host::shutdown, host);
            ConnectedPeers.bind(metrics.registry(), host);
            // RLN before the relay it validates for: it fails fast (the native pairing, the chain) and reads the first root
            RlnRelay rln = config.rln() == null || !config.edge().relay() ? null : RlnRelay.start(config.rln(),
                    config.relay().pubsubTopics(), metrics.registry(), WallClock::nowNanos);
            this.rln = rln == null ? null : components.add("rln relay", rln, rln::shutdown, rln);
            ProofSource proofs = rln == null ? null : message -> {
                throw new ProofSource.ProofUnavailableException(RlnRelay.NO_CREDENTIALS);
            };
            // --relay=false: an edge node mounts no relay protocol (nwaku's), and with it no lightpush or filter service
            Relay relay = config.edge().relay() ? Relay.start(config.relay(), host, counters, metrics.registry(),
                    rln == null ? null : rln.validator()) : null;
            this.relay = relay == null ? null : components.add("relay", relay, relay::shutdown, relay);
            if (relay == null) { // nwaku's service nodes disconnect a peer that does not answer metadata
                components.add("metadata", Relay.serveMetadata(host, config.relay().clusterId(),
                        Set.copyOf(config.relay().pubsubTopics())));
            }
            if (archive != null && relay != null) {
                archive.expectTopics(relay.subscriptions()); // per-shard series at 0 before the first message
            }
            // a repeated key is ambiguous (which one did the client mean?), so it is refused rather than last-one-wins
            ObjectMapper mapper = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            // the start-up topics are cached from the start, as nwaku's REST does; closed (released) as the node stops
            TopicCache cache = components.add("REST relay cache",
                    TopicCache.of(config.rest(), relay == null ? Set.of() : relay.subscriptions()));
            LiveStreams streams = LiveStreams.of(config.rest());
            RestMetrics.bind(metrics.registry(), cache, streams);
            LocalDelivery delivery = new LocalDelivery(mapper, cache, streams);

            // the services serve from the relay and the archive, so they start after both and stop before them
            ServicesConfig services = config.services();
            StoreQueries queries = archive == null ? null : new StoreQueries(archive, config.store(), metrics.registry());
            if (services.store() != null && archive != null) {
                StoreService store = StoreService.start(services.store(), host, queries, metrics.registry());
                components.add("store service", store, store::shutdown, store);
            }
            LightpushService lightpush = services.lightpush() == null || relay == null ? null
                    : LightpushService.start(services.lightpush(), host, relay, proofs, metrics.registry());
            this.lightpush = lightpush == null ? null : components.add("lightpush service", lightpush, lightpush::shutdown, lightpush);
            FilterService filter = services.filter() == null || relay == null ? null
                    : FilterService.start(services.filter(), host, relay, metrics.registry());
            this.filter = filter == null ? null : components.add("filter service", filter, filter::shutdown, filter);
            host.addPeerValues(new NodePeerValues(relay, filter)); // mesh peers and subscribers kept (ADR 0086)
            StoreClient storeClient = StoreClient.start(services.storeClient(), host, metrics.registry());
            components.add("store client", storeClient, storeClient::shutdown, storeClient);
            // always started, as the store client: its meters are there from the start (a dashboard shows 0, not no
            // data), and REST sends through it only with --lightpushnode
            LightpushClient lightpushClient = LightpushClient.start(config.edge().lightpushClient(), host, metrics.registry());
            components.add("lightpush client", lightpushClient, lightpushClient::shutdown, lightpushClient);
            FilterMessageCache filterCache = FilterMessageCache.of(config.rest());
            filterCache.bind(metrics.registry());
            // pushed messages pass the rules relayed ones pass: the relay's limits
            FilterClient filterClient = FilterClient.start(services.filterClient().toBuilder()
                            .limits(config.relay().limits()).build(), host,
                    (topic, message) -> cachePush(mapper, filterCache, topic, message), metrics.registry());
            components.add("filter client", filterClient, filterClient::shutdown, filterClient);
            // after the services: the node's record names the protocols its host serves (and discv5's UDP port as the
            // gateway maps it, with --nat=any|upnp|pmp)
            this.discovery = NodeDiscovery.start(config, host, relay, nat::udpPort, metrics.registry(), components);

            this.accepted = AcceptedMessages.of(filter, delivery, pipeline);
            accepted.connect(relay == null ? List.of() : List.of(relay.accepted()));

            RestServer rest = config.rest() == null ? null
                    : restPort.bind(() -> RestServer.start(config.rest(), relay == null ? null : new RelayBinding(relay, proofs), queries, storeClient::open,
                    config.edge().storeNode(), this, mapper, cache, streams, WakuNode::nowNanos,
                    config.relay().limits(), config.autoSharding(), NodeLightpush.of(lightpush,
                            lightpushClient, config.edge().lightpushNode(), config.relay().limits().maxMessageSize()),
                    filterClient, filterCache));
            this.rest = rest == null ? null : components.add("REST server", rest, rest::shutdown, rest);
            if (rest != null) {
                RestMetrics.bindRequests(metrics.registry(), rest);
            }
            // as nwaku's start waits for its static nodes (connectToNodes) before it says READY: /health says
            // INITIALIZING until each static peer's first dial has ended, connected or failed, within the handshake
            // timeout, so that a node restarted beside its peers is ready only once it has them back
            Mono<Void> firstDials = Mono.when(config.host().staticPeers().stream().map(host::addStaticPeer).toList());
            discovery.startFinders();
            firstDials.timeout(config.host().handshakeTimeout(), Mono.empty()).block();
            initialized = true;
        } catch (RuntimeException e) {
            components.unwind();
            throw e;
        }
    }

    public static WakuNode start(NodeConfig config) {
        WakuNode node = new WakuNode(config);
        // one field per value (ADR 0071): text prints them after the message as key=value, in this order (enr last:
        // NodeProcess and the deploy scripts read the fields before it); JSON as fields of their own
        log.atInfo().addKeyValue("peerId", node.peerId()).addKeyValue("version", VERSION)
                .addKeyValue("listenAddresses", node.listenAddresses())
                .addKeyValue("rest", node.rest == null ? "off" : HostPort.format(node.rest.address()))
                .addKeyValue("metrics", node.metricsServer == null ? "off" : HostPort.format(node.metricsServer.address()))
                .addKeyValue("store", node.archive == null ? "off" : RetentionText.format(config.archive().core().retention()))
                .addKeyValue("protocols", List.copyOf(node.host.protocols()))
                .addKeyValue("dataDir", config.dataDir().toAbsolutePath().normalize().toString())
                .addKeyValue("cluster", config.relay().clusterId())
                .addKeyValue("shards", shards(config.relay().pubsubTopics()))
                .addKeyValue("topics", config.relay().pubsubTopics())
                .addKeyValue("staticPeers", config.host().staticPeers().stream().map(String::valueOf).toList())
                .addKeyValue("enr", node.enrUri() == null ? "none" : node.enrUri())
                .log("node started");
        return node;
    }

    /** The shard numbers of the static-sharding topics among {@code topics}, for the start line. */
    private static List<Integer> shards(List<String> topics) {
        return topics.stream().map(Topics::shardOf).filter(java.util.OptionalInt::isPresent)
                .map(java.util.OptionalInt::getAsInt).toList();
    }

    /** A message the filter service node pushed, kept for GET /filter/v2/messages as its REST JSON. */
    private static void cachePush(ObjectMapper mapper, FilterMessageCache cache, String pubsubTopic, WakuMessage message) {
        try {
            cache.add(pubsubTopic, message.getContentTopic(), mapper.writeValueAsBytes(MessageJson.write(mapper, message)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a message renders as JSON", e);
        }
    }

    /** The wall clock in Unix nanoseconds ({@link WallClock}), as message timestamps are. */
    public static long nowNanos() {
        return WallClock.nowNanos();
    }


    /** Null on a node without relay ({@code --relay=false}). */
    public Relay relay() {
        return relay;
    }

    public Host host() {
        return host;
    }

    /** Null when the node does not archive. */
    public MessageArchive archive() {
        return archive;
    }

    public PathCounters counters() {
        return counters;
    }

    public NodeMetrics metrics() {
        return metrics;
    }

    /**
     * Calls {@code listener} with every accepted message, on the message path ({@code AcceptedMessages}: after filter
     * and REST, before the archive), while the envelope is still referenced (for in-process tools such as the load
     * generator; it must not block or keep the envelope).
     * Closing the returned handle removes the listener.
     */
    public AutoCloseable tap(Consumer<Envelope> listener) {
        return accepted.tap(listener);
    }

    /** Every batch the archive commits, as it commits it (hot; for in-process observers such as the load generator). */
    public Flux<CommittedBatch> committed() {
        return pipeline.committed();
    }

    public InetSocketAddress restAddress() {
        return rest == null ? null : rest.address();
    }

    public InetSocketAddress metricsAddress() {
        return metricsServer == null ? null : metricsServer.address();
    }

    /** The bound TCP address of the host (the actual port when configured with port 0). */
    public InetSocketAddress peerAddress() {
        return host.boundAddress();
    }

    /** The first address a peer can dial this node at, with its /p2p peer id. */
    public Multiaddr multiaddr() {
        return host.listenAddresses().get(0);
    }

    public NodeConfig config() {
        return config;
    }

    @Override
    public String peerId() {
        return host.peerId().toString();
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public List<String> listenAddresses() {
        return host.listenAddresses().stream().map(Multiaddr::toString).toList();
    }

    @Override
    public String enrUri() {
        Enr record = discovery.enr();
        return record == null ? null : record.text();
    }

    /** The node's record, or null when its key cannot sign one. */
    public Enr enr() {
        return discovery.enr();
    }

    @Override
    public Set<String> pubsubTopics() {
        return relay == null ? Set.of() : relay.subscriptions();
    }

    @Override
    public boolean relayMounted() {
        return relay != null;
    }

    @Override
    public boolean relayReady() {
        return !closed.get();
    }

    @Override
    public boolean initialized() {
        return initialized;
    }

    @Override
    public int relayPeerCount() {
        return relay == null ? 0 : relay.peers().size();
    }

    @Override
    public Set<String> services() {
        Set<String> services = new java.util.LinkedHashSet<>();
        if (lightpush != null) {
            services.add("Lightpush");
        }
        if (filter != null) {
            services.add("Filter");
        }
        if (config.services().peerExchange().server() != null) {
            services.add("Peer Exchange");
        }
        return services;
    }

    /**
     * With PostgreSQL, the node's sessions are named after its peer id ({@code pg_stat_activity.application_name}), so
     * that an operator of a fleet sees which node holds which connection.
     */
    private static ArchiveConfig named(ArchiveConfig archive, PrivateKey key) {
        if (!(archive instanceof PostgresConfig postgres)) {
            return archive;
        }
        return postgres.toBuilder().applicationName("wakurelay/" + PeerId.fromPublicKey(key.publicKey())).build();
    }

    @Override
    public String storeHealth() {
        if (archive == null) {
            return null;
        }
        Throwable failure = pipeline.failure();
        if (failure != null) {
            return "NotReady: " + failure.getMessage();
        }
        return archive.healthy() ? "Ready" : "NotReady: " + archive.lastWriteError().orElse("the archive is not writing");
    }

    @Override
    public String rlnHealth() {
        return rln == null ? null : rln.health();
    }

    @Override
    public List<PeerView> peers() {
        return PeerViews.of(host, relay, discovery.origins(), discovery.manager().candidates());
    }

    @Override
    public int clusterId() {
        return config.relay().clusterId();
    }

    @Override
    public List<FilterSubscriberView> filterSubscribers() {
        if (filter == null) {
            return null;
        }
        return filter.subscribedCriteria().entrySet().stream()
                .map(e -> new FilterSubscriberView(e.getKey().toString(), e.getValue().stream()
                        .map(c -> new FilterSubscriberView.Criterion(c.get(0), c.get(1))).toList()))
                .toList();
    }

    @Override
    public Mono<Void> addPeer(Multiaddr address, Duration timeout) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            host.addStaticPeer(address);
            // the static peer's dial is under way: this one shares it (or takes the connection it made)
            if (relay == null) {
                return host.dial(address).timeout(timeout).then();
            }
            return host.dial(address).timeout(timeout).flatMap(connection -> {
                Duration left = timeout.minusNanos(System.nanoTime() - start);
                // a peer subscribed to nothing says nothing: the wait ends with the time left, connected all the same
                return relay.heardFrom(connection.remotePeer())
                        .timeout(left.isNegative() ? Duration.ZERO : left, Mono.empty());
            });
        });
    }

    /**
     * Graceful shutdown within the configured grace ({@link NodeConfig#shutdownGrace()}): Goodbye to peers, what was
     * accepted archived, RocksDB closed, servers stopped. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.atInfo().addKeyValue("peerId", peerId()).log("node stopping");
        components.stop(config.shutdownGrace());
        log.atInfo().addKeyValue("peerId", peerId()).log("node stopped");
    }
}
