package io.wakurelay.node;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.node.config.HostPort;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.node.metrics.ConnectedPeers;
import io.wakurelay.node.metrics.MetricsServer;
import io.wakurelay.node.metrics.NodeMetrics;
import io.wakurelay.node.rest.LiveStreams;
import io.wakurelay.node.rest.LocalDelivery;
import io.wakurelay.node.rest.RestMetrics;
import io.wakurelay.node.rest.RestServer;
import io.wakurelay.node.rest.TopicCache;
import io.wakurelay.node.store.StoreQueries;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.relay.Relay;
import io.wakurelay.services.FilterService;
import io.wakurelay.services.LightpushService;
import io.wakurelay.services.StoreClient;
import io.wakurelay.services.StoreService;
import io.wakurelay.protocol.WallClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One running node: a libp2p host with Waku relay on it, and the Waku services (Store v3, lightpush, filter) beside
 * it; the relay's accepted messages flow to filter subscribers, local REST consumers and into the archive; REST and
 * metrics servers on top. {@link #close()} shuts down in the order that loses
 * nothing: REST stops taking requests (503 while the rest closes), the services stop serving, the relay stops taking messages and hands over
 * what it accepted, the archive commits it, the host closes its connections, RocksDB closes, then the servers stop.
 */
public final class WakuNode implements NodeStatus, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WakuNode.class);
    public static final String VERSION = versionOf();

    private final NodeConfig config;
    private final PathCounters counters = new PathCounters();
    private final NodeMetrics metrics;
    private final MessageArchive archive;
    private final Host host;
    private final Relay relay;
    private final StoreService storeService;
    private final LightpushService lightpush;
    private final FilterService filter;
    private final StoreClient storeClient;
    private final RestServer rest;
    private final MetricsServer metricsServer;
    private final LiveStreams streams;
    private final Sinks.Many<CommittedBatch> committed = Sinks.many().multicast().directBestEffort();
    private final Disposable pipeline;
    private final Mono<Void> pipelineDone;
    private final AtomicReference<Throwable> pipelineError = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<Consumer<Envelope>> taps = new CopyOnWriteArrayList<>();

    private WakuNode(NodeConfig config) {
        this.config = config;
        this.metrics = new NodeMetrics(counters, VERSION);
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            this.archive = config.archive() == null ? null : MessageArchive.open(config.archive(), metrics.registry());
            if (archive != null) {
                opened.add(archive);
            }
            // static peers are dialled once the relay listens for connections, so that it sees them from the start
            this.host = Host.start(config.host().toBuilder().staticPeers(List.of()).build(), config.nodeKey(), metrics.registry());
            opened.add(host);
            ConnectedPeers.bind(metrics.registry(), host);
            this.relay = Relay.start(config.relay(), host, counters, metrics.registry());
            opened.add(relay);
            if (archive != null) {
                archive.expectTopics(relay.subscriptions());
            }
            // a repeated key is ambiguous (which one did the client mean?), so it is refused rather than last-one-wins
            ObjectMapper mapper = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            TopicCache cache = TopicCache.of(config.rest());
            this.streams = LiveStreams.of(config.rest());
            RestMetrics.bind(metrics.registry(), cache, streams);
            LocalDelivery delivery = new LocalDelivery(mapper, cache, streams);

            ServicesConfig services = config.services();
            StoreQueries queries = archive == null ? null : new StoreQueries(archive, config.store(), metrics.registry());
            // the services serve from the relay and the archive, so they start after both and stop before them
            this.storeService = services.store() == null || archive == null ? null
                    : StoreService.start(services.store(), host, archive, queries.slots(), metrics.registry());
            if (storeService != null) {
                opened.add(storeService);
            }
            this.lightpush = services.lightpush() == null ? null
                    : LightpushService.start(services.lightpush(), host, relay, metrics.registry());
            if (lightpush != null) {
                opened.add(lightpush);
            }
            this.filter = services.filter() == null ? null
                    : FilterService.start(services.filter(), host, relay, metrics.registry());
            if (filter != null) {
                opened.add(filter);
            }
            this.storeClient = StoreClient.start(services.storeClient(), host, metrics.registry());
            opened.add(storeClient);

            Flux<Envelope> accepted = relay.accepted().doOnNext(e -> {
                if (filter != null) {
                    pushQuietly(filter, e);
                }
                deliverQuietly(delivery, e);
                for (Consumer<Envelope> tap : taps) {
                    tap.accept(e);
                }
            });
            Flux<?> sink = archive == null
                    ? accepted.doOnNext(Envelope::release)
                    : archive.write(accepted).doOnNext(committed::tryEmitNext);
            Sinks.Empty<Void> done = Sinks.empty();
            this.pipelineDone = done.asMono();
            this.pipeline = sink.subscribe(x -> { },
                    e -> {
                        pipelineError.set(e);
                        log.error("message pipeline failed; the node no longer archives", e);
                        done.tryEmitEmpty();
                    },
                    done::tryEmitEmpty);

            this.rest = config.rest() == null ? null
                    : new RestServer(config.rest(), new RelayBinding(relay), queries, storeClient::query, this, mapper, cache,
                    streams, WakuNode::nowNanos,
                    config.relay().limits().maxTopicBytes(), config.autoSharding(), lightpush == null ? null : lightpush::push);
            if (rest != null) {
                opened.add(rest);
            }
            this.metricsServer = config.metrics() == null ? null
                    : new MetricsServer(config.metrics().address(), config.metrics().port(), metrics::scrape);
            config.host().staticPeers().forEach(host::addStaticPeer);
        } catch (RuntimeException e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                closeQuietly(opened.get(i));
            }
            metrics.close();
            throw e;
        }
    }

    public static WakuNode start(NodeConfig config) {
        WakuNode node = new WakuNode(config);
        log.info("node started peerId={} version={} listen={} rest={} metrics={} store={} protocols={} dataDir={} topics={} staticPeers={}",
                node.peerId(), VERSION, node.listenAddresses(),
                node.rest == null ? "off" : HostPort.format(node.rest.address()),
                node.metricsServer == null ? "off" : HostPort.format(node.metricsServer.address()),
                node.archive == null ? "off" : config.archive().retention(), node.host.protocols(),
                config.dataDir().toAbsolutePath(), config.relay().pubsubTopics(), config.host().staticPeers());
        return node;
    }

    private static void deliverQuietly(LocalDelivery delivery, Envelope e) {
        try {
            delivery.deliver(e);
        } catch (RuntimeException ex) {
            // a REST consumer must never stop the archive path
            log.warn("local delivery of {} failed", e.hash(), ex);
        }
    }

    private static void pushQuietly(FilterService filter, Envelope e) {
        try {
            filter.onAccepted(e); // never blocks; keeps nothing of the envelope
        } catch (RuntimeException ex) {
            // a filter subscriber must never stop the archive path
            log.warn("filter push of {} failed", e.hash(), ex);
        }
    }

    /** The wall clock in Unix nanoseconds ({@link WallClock}), as message timestamps are. */
    public static long nowNanos() {
        return WallClock.nowNanos();
    }

    private static String versionOf() {
        String v = WakuNode.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

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
     * Calls {@code listener} with every accepted message, on the message path, while the envelope is still
     * referenced (for in-process tools such as the load generator; it must not block or keep the envelope).
     * Closing the returned handle removes the listener.
     */
    public AutoCloseable tap(Consumer<Envelope> listener) {
        taps.add(listener);
        return () -> taps.remove(listener);
    }

    /** Every batch the archive commits, as it commits it (hot; for in-process observers such as the load generator). */
    public Flux<CommittedBatch> committed() {
        return committed.asFlux();
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
    public Set<String> pubsubTopics() {
        return relay.subscriptions();
    }

    @Override
    public boolean relayReady() {
        return !closed.get();
    }

    @Override
    public int relayPeerCount() {
        return relay.peers().size();
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
        return services;
    }

    @Override
    public String storeHealth() {
        if (archive == null) {
            return null;
        }
        Throwable failure = pipelineError.get();
        if (failure != null) {
            return "NotReady: " + failure.getMessage();
        }
        return archive.healthy() ? "Ready" : "NotReady: " + archive.lastWriteError().orElse("the archive is not writing");
    }

    @Override
    public List<PeerView> peers() {
        return PeerViews.of(host, relay);
    }

    @Override
    public void addPeer(Multiaddr address) {
        host.addStaticPeer(address);
    }

    /** Graceful shutdown: Goodbye to peers, archive flushed, RocksDB closed, servers stopped. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.info("node stopping peerId={}", peerId());
        if (rest != null) {
            rest.drain(Duration.ofSeconds(5)); // first: no REST request may reach a relay or archive that is closing
        }
        // the services next: no light client may publish or query through a relay or archive that is closing
        Duration grace = Duration.ofSeconds(5);
        List<Mono<Void>> stopping = new ArrayList<>();
        stopping.add(storeClient.shutdown(grace));
        if (storeService != null) {
            stopping.add(storeService.shutdown(grace));
        }
        if (lightpush != null) {
            stopping.add(lightpush.shutdown(grace));
        }
        if (filter != null) {
            stopping.add(filter.shutdown(grace));
        }
        Mono.when(stopping)
                .onErrorResume(e -> {
                    log.warn("a service did not shut down cleanly", e);
                    return Mono.empty();
                })
                .block(Duration.ofSeconds(15));
        closeQuietly(() -> relay.shutdown(Duration.ofSeconds(5)).block(Duration.ofSeconds(15)));
        try {
            pipelineDone.block(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            log.warn("the archive did not finish in 30 s; stopping it", e);
        }
        pipeline.dispose();
        committed.tryEmitComplete();
        closeQuietly(host);
        if (archive != null) {
            closeQuietly(archive);
        }
        if (rest != null) {
            closeQuietly(rest);
        }
        if (metricsServer != null) {
            closeQuietly(metricsServer);
        }
        metrics.close();
        log.info("node stopped peerId={}", peerId());
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.warn("closing {} failed", c, e);
        }
    }
}
