package io.wakurelay.relay;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.ConnectionListener;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.validation.RelayValidator;
import io.wakurelay.protocol.WallClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Waku relay on a libp2p {@link Host}: gossipsub v1.1 on {@value #PROTOCOL_ID} (StrictNoSign, message id =
 * SHA-256 of the WakuMessage bytes) and Waku metadata. Every accepted message (new, valid, on a subscribed topic)
 * is decoded once and hashed once, forwarded to the mesh as the bytes received, and handed to one local consumer
 * ({@link #accepted()}) with backpressure to the peers. docs/relay.md describes the design.
 */
public final class Relay implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Relay.class);
    public static final String PROTOCOL_ID = "/vac/waku/relay/2.0.0";
    /** The grace period of {@link #close()}. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);
    private static final Duration REOPEN_DELAY = Duration.ofSeconds(1);

    private final RelayConfig config;
    private final Host host;
    /** The metrics, and a test's listener beside them when it gave one. */
    private final RouterEvents events;
    private final HandOver handOver;
    private final GossipRouter router;
    /** The validation stage of the installed validator; null: none. */
    private final ValidationRoom validation;
    private final LocalPublish publisher;
    private final MetadataProtocol metadata;
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private final Scheduler timers;
    private final Disposable heartbeat;
    /** Held while a subscription change is made and announced, so that peers hear changes in the order made. */
    private final Object subscriptionChanges = new Object();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Sinks.Empty<Void> terminated = Sinks.empty();
    /** The readers of the peers' relay streams, for the buffered-bytes gauge. */
    private final Set<RelayStreamReader> openReaders = ConcurrentHashMap.newKeySet();
    private final ConnectionListener listener = new ConnectionListener() {
        @Override
        public void onConnected(Connection connection) {
            connected(connection);
        }

        @Override
        public void onDisconnected(Connection connection) {
            // one the host replaced by another connection of the peer: its state moves there when that one is told
            if (!host.connection(connection.remotePeer()).map(c -> c != connection && c.isOpen()).orElse(false)) {
                router.removePeer(connection);
            }
        }
    };

    private Relay(RelayConfig config, Host host, PathCounters counters, MeterRegistry registry,
                  RelayValidator relayValidator, RouterEvents listener) {
        this.config = config;
        this.host = host;
        RelayMetrics metrics = new RelayMetrics(registry, config.clusterId());
        this.events = listener == null ? metrics : RouterEvents.both(metrics, listener);
        this.handOver = new HandOver(config.localQueueMessages());
        this.validation = relayValidator == null ? null
                : new ValidationRoom(config.validation(), relayValidator, events, System::nanoTime);
        MessageValidator validator = new MessageValidator(config.limits(), Relay::wallClockNanos);
        this.router = new GossipRouter(config, new EnvelopeDecoder(validator, counters), counters, events, handOver,
                alloc, System::nanoTime, Relay::wallClockNanos, validation);
        this.publisher = new LocalPublish(config, new EnvelopeEncoder(validator, counters), router, handOver, events,
                alloc, this::checkOpen, validation);
        this.metadata = new MetadataProtocol(config::clusterId, router::subscriptions, events);
        events.reading(Reading.INBOUND_BUFFERED_BYTES, () -> openReaders.stream().mapToLong(RelayStreamReader::buffered).sum());
        this.timers = Schedulers.newSingle("relay-heartbeat", true);
        router.join(config.pubsubTopics());
        long period = config.gossip().heartbeat().toNanos();
        this.heartbeat = timers.schedulePeriodically(this::heartbeat, period, period, TimeUnit.NANOSECONDS);
    }

    /**
     * Serves Waku metadata ({@code /vac/waku/metadata/1.0.0}) without relay, for a node that does not relay (edge
     * mode): nwaku disconnects a peer that does not answer its metadata request, so an edge node answers it with its
     * cluster and the shards of {@code topics}, and disconnects a requester of another cluster. Closing the handle
     * withdraws the protocol.
     */
    public static AutoCloseable serveMetadata(Host host, int clusterId, Set<String> topics) {
        Set<String> shards = Set.copyOf(topics);
        host.handle(MetadataProtocol.PROTOCOL_ID, new MetadataProtocol(() -> clusterId, () -> shards, null).server());
        return () -> host.unhandle(MetadataProtocol.PROTOCOL_ID);
    }

    /**
     * Starts the relay on {@code host}: serves relay and metadata, joins {@code config.pubsubTopics()}, and takes
     * every connection the host has or makes.
     *
     * @param counters the node's path counters (message ids, decodes, hashes, encodes), which the relay increments
     * @param registry where the relay registers its meters (docs/metrics.md); one relay per registry
     */
    public static Relay start(RelayConfig config, Host host, PathCounters counters, MeterRegistry registry) {
        return start(config, host, counters, registry, null, null);
    }

    /**
     * As {@link #start(RelayConfig, Host, PathCounters, MeterRegistry)}, with {@code validator} judging every message
     * before it is forwarded, delivered locally or archived, and every message this node publishes: its screen where
     * the message arrived, its verification on the relay's validation threads within {@code config.validation()}
     * (docs/relay.md, "Validation"). The one way to install a validator: it judges from the first message on.
     *
     * @param validator null: none (as the four-argument start)
     */
    public static Relay start(RelayConfig config, Host host, PathCounters counters, MeterRegistry registry,
                              RelayValidator validator) {
        return start(config, host, counters, registry, validator, null);
    }

    /** As {@link #start(RelayConfig, Host, PathCounters, MeterRegistry, RelayValidator)}, with {@code listener} told
     * every router event too. */
    static Relay start(RelayConfig config, Host host, PathCounters counters, MeterRegistry registry,
                       RelayValidator validator, RouterEvents listener) {
        Relay relay = new Relay(Objects.requireNonNull(config, "config"), Objects.requireNonNull(host, "host"),
                Objects.requireNonNull(counters, "counters"), Objects.requireNonNull(registry, "registry"), validator,
                listener);
        host.handle(PROTOCOL_ID, relay::inboundStream);
        host.handle(MetadataProtocol.PROTOCOL_ID, relay.metadata.server());
        host.addListener(relay.listener);
        for (Connection existing : host.connections()) {
            existing.executor().execute(() -> relay.connected(existing));
        }
        log.atInfo().addKeyValue("topics", config.pubsubTopics()).addKeyValue("cluster", config.clusterId())
                .addKeyValue("D", config.gossip().d()).addKeyValue("Dlo", config.gossip().dLo())
                .addKeyValue("Dhi", config.gossip().dHi()).addKeyValue("heartbeat", String.valueOf(config.gossip().heartbeat()))
                .addKeyValue("validator", validator == null ? "none" : validator.getClass().getSimpleName())
                .log("relay started");
        return relay;
    }

    private void heartbeat() {
        try {
            router.heartbeat();
        } catch (RuntimeException e) {
            log.error("relay heartbeat failed", e);
        }
    }

    private void connected(Connection connection) {
        if (closing.get() || !connection.isOpen()) {
            return;
        }
        PeerState peer = router.addPeer(connection, new PeerSender(config, events, () -> stuck(connection)));
        openRelayStream(peer);
        metadata.query(connection);
    }

    private void stuck(Connection connection) {
        log.atInfo().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                .addKeyValue("drops", config.maxDropsBeforeDisconnect())
                .log("disconnecting relay peer: messages in a row did not fit its queue");
        events.disconnected("slow_consumer");
        connection.close();
    }

    /** This node's stream to the peer, for the RPCs it sends; opened again if it ends while the connection lives. */
    private void openRelayStream(PeerState peer) {
        peer.connection.openStream(PROTOCOL_ID, new StreamHandler() {
            @Override
            public void onOpen(Stream stream) {
                peer.sender.opened(stream);
                router.relayStreamOpened(peer);
            }

            @Override
            public void onData(Stream stream, ByteBuf data) {
                // each side writes only on the stream it opened
                data.release();
            }

            @Override
            public void onClosed(Stream stream, Throwable cause) {
                peer.sender.closed();
                if (!closing.get() && peer.connection.isOpen() && router.peer(peer.id) == peer) {
                    timers.schedule(() -> openRelayStream(peer), REOPEN_DELAY.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }).subscribe(null, e -> {
            if (e instanceof NegotiationException.NotSupported) {
                log.atDebug().addKeyValue("peer", String.valueOf(peer.id)).addKeyValue("protocol", PROTOCOL_ID)
                        .log("the peer does not speak relay; not a relay peer");
                router.removePeer(peer.id);
            } else if (!closing.get() && peer.connection.isOpen() && router.peer(peer.id) == peer) {
                // a stream that failed to open (reset, negotiation timeout) is tried again while the connection lives
                log.atDebug().addKeyValue("peer", String.valueOf(peer.id)).addKeyValue("reason", e.toString())
                        .log("opening the relay stream failed; trying again");
                timers.schedule(() -> openRelayStream(peer), REOPEN_DELAY.toMillis(), TimeUnit.MILLISECONDS);
            }
        });
    }

    private boolean isRegistered(Connection connection) {
        return host.connection(connection.remotePeer()).map(c -> c == connection).orElse(false);
    }

    /** Runs on the stream's event loop, the connection's, where {@link PeerState#inbound} is kept. */
    private StreamHandler inboundStream(Stream stream) {
        PeerState peer = router.peer(stream.remotePeer());
        // a stream on the connection that replaced the peer's first one (a simultaneous open) makes the peer anew
        if (peer == null || (peer.connection != stream.connection() && isRegistered(stream.connection()))) {
            peer = router.addPeer(stream.connection(), new PeerSender(config, events, () -> stuck(stream.connection())));
            openRelayStream(peer);
        }
        RelayStreamReader reader = new RelayStreamReader(router, peer, events, config.limits().maxRpcSize(),
                config.rpcReadTimeout(), openReaders);
        if (peer.connection != stream.connection()) {
            return reader; // on a connection being replaced: read while it lasts; the peer's own reader stays its
        }
        RelayStreamReader previous = peer.inbound;
        peer.inbound = reader;
        if (previous != null) {
            previous.replaced();
        }
        return reader;
    }

    /**
     * The accepted envelopes: new, valid, on a subscribed topic, from peers, a {@link PseudoPeer} and local publishes.
     * Exactly one subscriber; each envelope comes with one reference the subscriber must release. Signals arrive on
     * the relay's threads: do not block in them. When the subscriber falls {@code localQueueMessages} behind,
     * reading from the peers that deliver more pauses (their streams stop granting credit); nothing accepted is
     * dropped. Completes after {@link #shutdown}.
     */
    public Flux<Envelope> accepted() {
        return handOver.flux().doOnDiscard(Envelope.class, Envelope::release);
    }

    /**
     * Publishes a message of this node: validates it, encodes it once, hashes it once, and (unless seen before)
     * writes it to every peer of the topic above the publish threshold (flood publish), then hands it to
     * {@link #accepted()} if this node relays the topic. Nothing happens until subscribed.
     *
     * With a validator installed ({@link #start(RelayConfig, Host, PathCounters, MeterRegistry, RelayValidator)}) the
     * message is validated first, and may complete on a validation thread.
     *
     * @return the hash and the number of peers it went to; errors with {@link ProtocolViolation} for an invalid
     * message, {@link MessageRejectedException} when the validator rejects or ignores it, {@link RelayBusyException}
     * when the local consumer is too far behind (or the validation stage full), {@link RelayClosedException} after
     * shutdown
     */
    public Mono<PublishResult> publish(String pubsubTopic, WakuMessage message) {
        return publisher.publish(pubsubTopic, message);
    }

    /**
     * Joins {@code topics}. Before this returns, every connected relay peer has the change in one RPC (queued to its
     * stream, or held until the stream opens), as nwaku announces a subscription at once. Limited to
     * {@code maxTopics} in all.
     *
     * @return completes once every relay peer the change was written to has read it ({@link ReadConfirmations}: the
     * answer to a stream opened behind it), or after {@link ReadConfirmations#TIMEOUT}: from then on a peer that
     * publishes on the topic reaches this node. It runs whether or not it is subscribed to.
     * @throws IllegalArgumentException when that would pass {@code maxTopics} or a topic is not valid (nothing changes)
     */
    public Mono<Void> subscribe(Collection<String> topics) {
        checkOpen();
        synchronized (subscriptionChanges) {
            Set<String> after = new java.util.HashSet<>(router.subscriptions());
            after.addAll(topics);
            RelayConfig.checkTopics(after, config.limits(), config.maxTopics());
            Outbox change = router.joinAndAnnounce(topics);
            router.send(change);
            return ReadConfirmations.of(change.controlledOpenPeers());
        }
    }

    /** Leaves {@code topics}; every peer has the change in one RPC before this returns. */
    public void unsubscribe(Collection<String> topics) {
        checkOpen();
        synchronized (subscriptionChanges) {
            router.send(router.leaveAndAnnounce(topics));
        }
    }

    /**
     * Completes once the relay heard the connected {@code peer}'s first RPC (its subscriptions, which a relay peer
     * sends as its stream opens), or knows that it is not, or no longer, a relay peer; at once when it is not one
     * now. After it, a publish on a topic the peer relays reaches it. A peer subscribed to nothing says nothing:
     * give it a timeout.
     */
    public Mono<Void> heardFrom(PeerId peer) {
        PeerState state = router.peer(Objects.requireNonNull(peer, "peer"));
        return state == null ? Mono.empty() : state.heard.asMono();
    }

    public Set<String> subscriptions() {
        return router.subscriptions();
    }

    /** The relay peers: score, topics, mesh topics, queue. */
    public List<RelayPeer> peers() {
        return router.peers();
    }

    /** The mesh of each subscribed topic. */
    public Map<String, List<PeerId>> mesh() {
        return router.mesh();
    }

    /** The shards this node announces in metadata (those of its cluster among its topics). */
    public List<Integer> shards() {
        return metadata.shards();
    }

    public RelayConfig config() {
        return config;
    }

    /** For tests of the router's state. */
    GossipRouter router() {
        return router;
    }

    void checkOpen() {
        if (closing.get()) {
            throw new RelayClosedException("the relay is shut down");
        }
    }

    /**
     * Shuts down: stops taking relay streams and the heartbeat, drops the messages waiting for verification (those
     * being verified finish), and completes {@link #accepted()} once what was accepted has been taken; past
     * {@code grace}, what was not taken is released. Connections belong to the host,
     * which the caller shuts down after this. Idempotent; completes when done.
     */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        return Mono.defer(() -> {
            if (closing.compareAndSet(false, true)) {
                beginShutdown(grace);
            }
            return terminated.asMono();
        });
    }

    private void beginShutdown(Duration grace) {
        log.info("relay shutting down");
        host.removeListener(listener);
        host.unhandle(PROTOCOL_ID);
        host.unhandle(MetadataProtocol.PROTOCOL_ID);
        heartbeat.dispose();
        long deadline = System.nanoTime() + grace.toNanos();
        // the messages waiting for verification are dropped now; those being verified may still be accepted
        Mono<Void> verified = validation == null ? Mono.empty() : validation.shutdown()
                .timeout(atLeastAMillisecond(grace))
                .onErrorResume(TimeoutException.class, e -> {
                    log.atWarn().addKeyValue("grace", String.valueOf(grace))
                            .log("relay: verifications still running after the grace period; what they accept is released");
                    return Mono.empty();
                });
        verified.then(Mono.defer(() -> {
                    handOver.finish();
                    return handOver.drained().timeout(atLeastAMillisecond(Duration.ofNanos(deadline - System.nanoTime())));
                }))
                .onErrorResume(TimeoutException.class, e -> {
                    log.atWarn().addKeyValue("grace", String.valueOf(grace))
                            .log("relay: grace period over, releasing what the local consumer did not take");
                    handOver.abort();
                    return Mono.empty();
                })
                .doFinally(signal -> {
                    router.close();
                    timers.dispose();
                    log.info("relay shut down");
                    terminated.tryEmitEmpty();
                })
                .subscribe(null, e -> log.error("relay shutdown failed", e));
    }

    private static Duration atLeastAMillisecond(Duration d) {
        return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
    }

    /** {@code shutdown(DEFAULT_SHUTDOWN_GRACE)}, blocking. */
    @Override
    public void close() {
        shutdown(DEFAULT_SHUTDOWN_GRACE).block(DEFAULT_SHUTDOWN_GRACE.plusSeconds(10));
    }

    static long wallClockNanos() {
        return WallClock.nowNanos();
    }
}
