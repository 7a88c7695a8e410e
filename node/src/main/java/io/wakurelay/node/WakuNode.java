package io.wakurelay.node;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.node.config.HostPort;
import io.wakurelay.node.metrics.MetricsServer;
import io.wakurelay.node.metrics.NodeMetrics;
import io.wakurelay.node.rest.LiveStreams;
import io.wakurelay.node.rest.LocalDelivery;
import io.wakurelay.node.rest.RestServer;
import io.wakurelay.node.rest.TopicCache;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.relay.PeerInfo;
import io.wakurelay.relay.Relay;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One running node: the relay's accepted messages flow to local REST consumers and into the archive; REST
 * and metrics servers on top. {@link #close()} shuts down in the order that loses nothing: peers get a
 * Goodbye and stop sending, the archive commits what it holds, RocksDB closes, then the servers stop.
 */
public final class WakuNode implements NodeStatus, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WakuNode.class);
    public static final String VERSION = versionOf();

    private final NodeConfig config;
    private final PathCounters counters = new PathCounters();
    private final NodeMetrics metrics;
    private final MessageArchive archive;
    private final Relay relay;
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
        this.metrics = new NodeMetrics(counters);
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            this.archive = config.archive() == null ? null : MessageArchive.open(config.archive(), metrics.registry());
            if (archive != null) {
                opened.add(archive);
            }
            this.relay = Relay.start(config.relay(), counters, metrics.registry());
            opened.add(relay);
            // a repeated key is ambiguous (which one did the client mean?), so it is refused rather than last-one-wins
            ObjectMapper mapper = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            TopicCache cache = new TopicCache(config.rest() == null ? 1 : config.rest().cacheCapacity());
            this.streams = new LiveStreams(config.rest() == null ? 0 : config.rest().maxStreams(),
                    config.rest() == null ? 1 : config.rest().streamBufferMessages());
            bindRestMeters(cache, streams);
            LocalDelivery delivery = new LocalDelivery(mapper, cache, streams);

            Flux<Envelope> accepted = relay.accepted().doOnNext(e -> {
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
                    : new RestServer(config.rest(), relay, archive, this, mapper, cache, streams, WakuNode::nowNanos,
                    config.relay().limits().maxTopicBytes());
            if (rest != null) {
                opened.add(rest);
            }
            this.metricsServer = config.metrics() == null ? null
                    : new MetricsServer(config.metrics().address(), config.metrics().port(), metrics::scrape);
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
        log.info("node started nodeId={} version={} tcp={} rest={} metrics={} store={} dataDir={} topics={} staticPeers={}",
                node.nodeId(), VERSION, node.listenAddresses().isEmpty() ? "off" : node.listenAddresses().get(0),
                node.rest == null ? "off" : HostPort.format(node.rest.address()),
                node.metricsServer == null ? "off" : HostPort.format(node.metricsServer.address()),
                node.archive == null ? "off" : config.archive().retention(),
                config.dataDir().toAbsolutePath(), config.relay().pubsubTopics(),
                config.relay().staticPeers().stream().map(HostPort::format).toList());
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

    private void bindRestMeters(TopicCache cache, LiveStreams streams) {
        var registry = metrics.registry();
        Gauge.builder("waku.rest.cache.messages", cache, TopicCache::size)
                .description("messages held for REST-subscribed topics").register(registry);
        FunctionCounter.builder("waku.rest.cache.dropped", cache, TopicCache::dropped)
                .description("cached messages dropped because a topic's cache was full").register(registry);
        Gauge.builder("waku.rest.streams.open", streams, LiveStreams::openStreams)
                .description("open Server-Sent Event streams").register(registry);
        FunctionCounter.builder("waku.rest.streams.dropped", streams, LiveStreams::dropped)
                .description("events not sent to a stream reader that was too slow").register(registry);
        FunctionCounter.builder("waku.rest.streams.disconnected", streams, LiveStreams::disconnected)
                .description("stream readers disconnected because they took nothing while a whole buffer of events was dropped").register(registry);
    }

    public static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static String versionOf() {
        String v = WakuNode.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    public Relay relay() {
        return relay;
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

    public InetSocketAddress peerAddress() {
        return relay.boundAddress();
    }

    public NodeConfig config() {
        return config;
    }

    @Override
    public String nodeId() {
        return relay.nodeId();
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public List<String> listenAddresses() {
        InetSocketAddress bound = relay.boundAddress();
        if (bound == null) {
            return List.of();
        }
        // as configured (0.0.0.0 rather than the IPv6 wildcard the socket reports), with the port actually bound
        return List.of(config.relay().listenAddress().getHostString() + ":" + bound.getPort());
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
    public List<PeerInfo> peers() {
        return relay.peers();
    }

    @Override
    public void addPeer(InetSocketAddress address) {
        relay.addPeer(address);
    }

    /** Graceful shutdown: Goodbye to peers, archive flushed, RocksDB closed, servers stopped. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.info("node stopping nodeId={}", nodeId());
        closeQuietly(() -> relay.shutdown(Duration.ofSeconds(5)).block(Duration.ofSeconds(15)));
        try {
            pipelineDone.block(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            log.warn("the archive did not finish in 30 s; stopping it", e);
        }
        pipeline.dispose();
        committed.tryEmitComplete();
        if (archive != null) {
            closeQuietly(archive);
        }
        streams.completeAll();
        if (rest != null) {
            closeQuietly(rest);
        }
        if (metricsServer != null) {
            closeQuietly(metricsServer);
        }
        metrics.close();
        log.info("node stopped nodeId={}", nodeId());
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.warn("closing {} failed", c, e);
        }
    }
}
