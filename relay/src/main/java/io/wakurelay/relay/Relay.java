package io.wakurelay.relay;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCounted;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.FrameCodec;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.proto.Goodbye;
import io.wakurelay.protocol.proto.WakuMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.core.publisher.Sinks;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A relay node's peer side: accepts and dials peer connections, relays messages on the pubsub topics it
 * subscribes to (each decoded once, hashed once, deduplicated, and forwarded as the bytes received), and hands
 * every accepted message to one local consumer with backpressure. docs/relay.md describes the design.
 */
public final class Relay implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Relay.class);
    /** The grace period of {@link #close()}. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);
    /** Frames an inject stream reads ahead of its processing. */
    private static final int INJECT_PREFETCH = 16;

    private final RelayConfig config;
    private final RelayMetrics metrics;
    private final LocalSubscriptions subscriptions;
    private final PeerRegistry registry;
    private final SeenCache seen;
    private final LocalDelivery delivery;
    private final EnvelopeEncoder encoder;
    private final ReceivePath receivePath;
    private final SessionContext context;
    private final TcpClient client;
    private final PeerTls tls;
    private final Map<InetSocketAddress, StaticPeerDialer> dialers = new ConcurrentHashMap<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Where injected frames take the receive path; a daemon thread made on first use. */
    private final Scheduler injectScheduler;
    private final Sinks.Empty<Void> terminated = Sinks.empty();
    private volatile DisposableServer server;
    private volatile String announcedAddress = "";

    private Relay(RelayConfig config, PathCounters counters, MeterRegistry meterRegistry) {
        this.config = config;
        this.metrics = new RelayMetrics(meterRegistry);
        this.subscriptions = new LocalSubscriptions(config.pubsubTopics());
        this.registry = new PeerRegistry(config.nodeId(), metrics, config.maxConnections(), config.security().maxInboundPerAddress());
        this.seen = new SeenCache(config.seenCacheCapacity(), config.seenTtl(), System::nanoTime);
        this.delivery = new LocalDelivery(config.localQueueMessages());
        this.injectScheduler = Schedulers.newSingle("relay-inject-" + config.nodeId(), true);
        MessageValidator validator = new MessageValidator(config.limits(), Relay::wallClockNanos);
        this.encoder = new EnvelopeEncoder(validator, counters);
        this.receivePath = new ReceivePath(new EnvelopeDecoder(validator, counters), seen, subscriptions, registry, metrics);
        this.context = new SessionContext(config, metrics, registry, subscriptions, receivePath, delivery,
                new InboundByteCounter(metrics.bytesReceived), () -> announcedAddress);
        metrics.bindGauges(registry, seen, delivery.pendingGauge());
        this.tls = config.tls() == null ? null
                : PeerTls.create(config.tls(), config.handshakeTimeout(), config.maxConnections(), metrics);
        TcpClient plain = TcpClient.newConnection()
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.handshakeTimeout().toMillis()));
        this.client = tls == null ? plain : tls.secure(plain);
    }

    /**
     * Starts a relay: binds its listen address (before returning) and starts dialling its static peers.
     *
     * @param counters the node's path counters (decodes, hashes, encodes), which the relay increments
     * @param registry where the relay registers its meters (docs/metrics.md); one relay per registry
     */
    public static Relay start(RelayConfig config, PathCounters counters, MeterRegistry registry) {
        Objects.requireNonNull(config, "config");
        Relay relay = new Relay(config, Objects.requireNonNull(counters, "counters"), Objects.requireNonNull(registry, "registry"));
        try {
            relay.listen();
            config.staticPeers().forEach(relay::addPeer);
        } catch (RuntimeException e) {
            relay.shutdown(Duration.ZERO).block(Duration.ofSeconds(10));
            throw e;
        }
        log.info("relay {} started: listening on {}, transport {}, tls {}, rate limits {}, topics {}, static peers {}",
                config.nodeId(), config.listenAddress() == null ? "nothing" : relay.announcedAddress,
                LoopResources.hasNativeSupport() ? "native" : "nio", config.tls() == null ? "off" : "on", config.rateLimits(),
                relay.subscriptions(), config.staticPeers());
        return relay;
    }

    private void listen() {
        if (config.listenAddress() == null) {
            return;
        }
        TcpServer plain = TcpServer.create()
                .bindAddress(config::listenAddress)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .childOption(ChannelOption.TCP_NODELAY, true);
        // with TLS, Reactor Netty signals the connection only after its handshake succeeded
        server = (tls == null ? plain : tls.secure(plain))
                .doOnConnection(connection -> onConnection(connection, Direction.INBOUND))
                .handle((in, out) -> out.neverComplete())
                .bindNow(Duration.ofSeconds(10));
        announcedAddress = PeerSession.format(server.address());
    }

    /** A channel turns unwritable when its peer queue is full, so writability and the queue tell one story. */
    private WriteBufferWaterMark waterMark() {
        return new WriteBufferWaterMark((int) (config.peerQueueBytes() / 2), (int) config.peerQueueBytes());
    }

    /**
     * A new connection, either way, on its event loop and before anything was read from it.
     *
     * @return its session, or null when the connection was refused
     */
    private PeerSession onConnection(Connection connection, Direction direction) {
        if (closing.get()) {
            refuse(connection, Goodbye.Reason.SHUTDOWN, "the node is shutting down");
            return null;
        }
        InetAddress from = direction == Direction.INBOUND && connection.channel().remoteAddress() instanceof InetSocketAddress remote
                ? remote.getAddress() : null;
        if (from != null && !registry.tryOpenInbound(from)) {
            refuse(connection, Goodbye.Reason.TOO_MANY_CONNECTIONS, RelayMetrics.TOO_MANY_FROM_ADDRESS,
                    "this node has " + config.security().maxInboundPerAddress() + " connections from " + from.getHostAddress());
            return null;
        }
        if (!registry.tryOpen()) {
            if (from != null) {
                registry.closedInbound(from);
            }
            refuse(connection, Goodbye.Reason.TOO_MANY_CONNECTIONS, "this node has " + config.maxConnections() + " connections");
            return null;
        }
        if (from != null) {
            connection.onDispose(() -> registry.closedInbound(from));
        }
        // the session frees the slot when its connection closes
        PeerSession session = new PeerSession(context, connection, direction);
        session.start();
        return session;
    }

    /**
     * Refuses a connection before reading from it: Goodbye, output shut down so the peer reads the Goodbye rather
     * than a reset, then whatever the peer sent is discarded until it closes or the linger time passes.
     */
    private void refuse(Connection connection, Goodbye.Reason reason, String detail) {
        refuse(connection, reason, RelayMetrics.label(reason), detail);
    }

    private void refuse(Connection connection, Goodbye.Reason reason, String metricReason, String detail) {
        metrics.rejected(metricReason);
        log.debug("refusing connection from {}: {}", connection.channel().remoteAddress(), detail);
        ByteBuf goodbye = FrameCodec.encode(ControlFrames.goodbye(reason, detail), connection.channel().alloc());
        int size = goodbye.readableBytes();
        connection.channel().writeAndFlush(goodbye).addListener(future -> {
            if (future.isSuccess()) {
                metrics.frameSent(FrameKind.GOODBYE, size);
            }
            if (future.isSuccess() && connection.channel() instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                connection.dispose();
            }
        });
        connection.inbound().receive().subscribe();
        connection.channel().eventLoop().schedule(() -> {
            connection.dispose();
        }, PeerSession.GOODBYE_LINGER.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Dials a peer; emits its session once the handshake completed. */
    private Mono<PeerSession> dial(InetSocketAddress address) {
        return Mono.defer(() -> {
            // the connect Mono may emit before the connection's configuration callback ran: wait for the session
            Sinks.One<PeerSession> opened = Sinks.one();
            PeerSession.PeerClosedException refused = new PeerSession.PeerClosedException(
                    "connection to " + PeerSession.format(address) + " closed before its session started", null);
            return client.remoteAddress(() -> address)
                    .doOnConnected(connection -> {
                        PeerSession session = onConnection(connection, Direction.OUTBOUND);
                        if (session != null) {
                            opened.tryEmitValue(session);
                        } else {
                            opened.tryEmitError(refused);
                        }
                    })
                    .connect()
                    .flatMap(connection -> {
                        connection.onDispose(() -> opened.tryEmitError(refused));
                        return opened.asMono();
                    })
                    .flatMap(PeerSession::established);
        });
    }

    /**
     * The accepted envelopes: new (deduplicated), valid, on a locally subscribed topic, from peers, {@link #inject}
     * and local publishes. Exactly one subscriber; each envelope comes with one reference the subscriber must
     * release. Signals arrive on the relay's event loops: do not block in them. When the subscriber stops
     * requesting, reading from peers pauses once {@code localQueueMessages} envelopes wait (TCP backpressure),
     * nothing is dropped. Completes after {@link #shutdown}.
     */
    public Flux<Envelope> accepted() {
        return delivery.accepted();
    }

    /**
     * Publishes a message from this node: validates it, encodes it once, hashes it once, and (unless it was seen
     * before) relays it to the peers subscribed to the topic and hands it to {@link #accepted()} if this node
     * subscribes to the topic. Nothing happens until subscribed.
     *
     * @return the message hash; errors with {@link ProtocolViolation} for an invalid message, with
     * {@link RelayBusyException} when the local consumer is too far behind, with IllegalStateException after shutdown
     */
    public Mono<PublishResult> publish(String pubsubTopic, WakuMessage message) {
        return Mono.fromCallable(() -> publishNow(pubsubTopic, message));
    }

    private PublishResult publishNow(String pubsubTopic, WakuMessage message) {
        Objects.requireNonNull(pubsubTopic, "pubsubTopic");
        Objects.requireNonNull(message, "message");
        if (closing.get()) {
            throw new IllegalStateException("relay " + config.nodeId() + " is shut down");
        }
        metrics.receivedLocal.increment();
        Envelope envelope;
        try {
            envelope = encoder.encode(pubsubTopic, message, PooledByteBufAllocator.DEFAULT);
        } catch (ProtocolViolation e) {
            metrics.invalid(e.violation().label());
            throw e;
        }
        try {
            if (!seen.markSeen(envelope.hash())) {
                metrics.duplicates.increment();
                return new PublishResult(envelope.hash(), true);
            }
            if (subscriptions.contains(pubsubTopic) && !delivery.offerPublished(envelope.retain())) {
                envelope.release();
                seen.forget(envelope.hash());
                if (closing.get()) {
                    throw new IllegalStateException("relay " + config.nodeId() + " is shut down");
                }
                throw new RelayBusyException("the local consumer is behind: " + delivery.pending()
                        + " accepted messages wait (limit " + config.localQueueMessages() + ")");
            }
            metrics.accepted.increment();
            registry.fanOut(envelope, null);
            return new PublishResult(envelope.hash(), false);
        } finally {
            envelope.release();
        }
    }

    /**
     * Feeds frames from an in-process pseudo-peer through the receive path of a connection (parse, decode,
     * validate, hash, dedup, fan-out, local delivery), with the same backpressure: frames are requested only as
     * the local consumer takes envelopes. Each frame is as {@link io.wakurelay.protocol.FrameDecoder} emits it
     * (length prefix included); ownership passes to the relay, which releases it. Completes when every frame
     * was processed. A frame that breaks framing is counted and, as on a connection, every later frame is
     * discarded (released); the Mono then errors with that {@link ProtocolViolation}.
     */
    public Mono<Void> inject(Flux<ByteBuf> frames) {
        Objects.requireNonNull(frames, "frames");
        return Mono.defer(() -> {
            Sinks.Empty<Void> done = Sinks.empty();
            Sinks.Empty<Void> cancelled = Sinks.empty();
            InjectedSource source = new InjectedSource(receivePath, metrics);
            Flux<Envelope> envelopes = frames
                    // on a thread of their own, as a connection's frames are on its event loop: the receive path
                    // then runs beside the consumer (the archive writer) instead of on the thread that requests
                    .publishOn(injectScheduler, INJECT_PREFETCH)
                    .<Envelope>handle(source::onFrame)
                    .concatWith(source.end())
                    .doOnDiscard(ByteBuf.class, ReferenceCounted::release)
                    .takeUntilOther(cancelled.asMono())
                    .doOnComplete(done::tryEmitEmpty)
                    .doOnCancel(() -> done.tryEmitError(new CancellationException("the relay shut down before the frames were processed")))
                    .onErrorResume(e -> {
                        done.tryEmitError(e);
                        return Mono.empty();
                    });
            if (closing.get() || !delivery.add(envelopes)) {
                return Mono.error(new IllegalStateException("relay " + config.nodeId() + " is shut down"));
            }
            return done.asMono().doOnCancel(cancelled::tryEmitEmpty);
        });
    }

    /** Subscribes to {@code topics} and tells every connected peer. */
    public void subscribe(Collection<String> topics) {
        RelayConfig.checkTopics(topics, config.limits());
        subscriptions.subscribe(topics, added -> announce(ControlFrames.subscribe(added)));
    }

    /** Unsubscribes from {@code topics} and tells every connected peer. */
    public void unsubscribe(Collection<String> topics) {
        subscriptions.unsubscribe(topics, removed -> announce(ControlFrames.unsubscribe(removed)));
    }

    private void announce(io.wakurelay.protocol.proto.Frame frame) {
        registry.connections().forEach(session -> session.announce(frame));
    }

    public Set<String> subscriptions() {
        return subscriptions.current();
    }

    /** The peers past the handshake. */
    public List<PeerInfo> peers() {
        List<PeerInfo> peers = new ArrayList<>();
        for (PeerSession session : registry.peers()) {
            peers.add(session.info());
        }
        return peers;
    }

    /** Adds a static peer: dialled now, and redialled with backoff whenever the connection ends. */
    public void addPeer(InetSocketAddress address) {
        Objects.requireNonNull(address, "address");
        if (closing.get()) {
            throw new IllegalStateException("relay " + config.nodeId() + " is shut down");
        }
        dialers.computeIfAbsent(address, a -> new StaticPeerDialer(a, this::dial, registry,
                config.reconnectMinBackoff(), config.reconnectMaxBackoff()));
    }

    /** Stops dialling a static peer and ends the connection to it (Goodbye PEER_REMOVED). */
    public void removePeer(InetSocketAddress address) {
        StaticPeerDialer dialer = dialers.remove(Objects.requireNonNull(address, "address"));
        if (dialer != null) {
            dialer.dispose();
            PeerSession session = dialer.session();
            if (session != null) {
                session.disconnect(Goodbye.Reason.PEER_REMOVED, "removed from the static peers");
            }
        }
    }

    /** Where the relay accepts connections (the actual port when configured with port 0), or null if it does not listen. */
    public InetSocketAddress boundAddress() {
        DisposableServer bound = server;
        return bound == null ? null : (InetSocketAddress) bound.address();
    }

    public String nodeId() {
        return config.nodeId();
    }

    /**
     * Shuts down: stops dialling and accepting, says Goodbye (SHUTDOWN) to every peer, and completes
     * {@link #accepted()} once the envelopes already read have been handed over. Past {@code grace}, connections
     * are closed and envelopes not yet handed over are released. Idempotent; completes when done.
     */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("shutdown grace must not be negative, was " + grace);
        }
        return Mono.defer(() -> {
            if (closing.compareAndSet(false, true)) {
                beginShutdown(grace);
            }
            return terminated.asMono();
        });
    }

    private void beginShutdown(Duration grace) {
        log.info("relay {} shutting down", config.nodeId());
        dialers.values().forEach(StaticPeerDialer::dispose);
        dialers.clear();
        DisposableServer bound = server;
        Mono<Void> unbound = Mono.empty();
        if (bound != null) {
            bound.dispose();
            unbound = bound.onDispose();
        }
        List<PeerSession> open = new ArrayList<>(registry.connections());
        open.forEach(session -> session.disconnect(Goodbye.Reason.SHUTDOWN, "the node is shutting down"));
        delivery.finish();
        Mono<Void> closed = Flux.fromIterable(open).flatMap(PeerSession::ended).then();
        Mono.when(unbound, closed).then(delivery.drained())
                .timeout(grace.isZero() ? Duration.ofMillis(1) : grace)
                .onErrorResume(TimeoutException.class, e -> {
                    log.warn("relay {}: grace period of {} over, closing what is left", config.nodeId(), grace);
                    registry.connections().forEach(PeerSession::closeNow);
                    delivery.abort();
                    return Flux.fromIterable(open).flatMap(PeerSession::ended).then();
                })
                .doFinally(signal -> {
                    delivery.releaseIfNeverSubscribed();
                    injectScheduler.dispose();
                    log.info("relay {} shut down", config.nodeId());
                    terminated.tryEmitEmpty();
                })
                .subscribe(null, e -> log.error("relay {} shutdown failed", config.nodeId(), e));
    }

    /** {@code shutdown(DEFAULT_SHUTDOWN_GRACE)}, blocking. */
    @Override
    public void close() {
        shutdown(DEFAULT_SHUTDOWN_GRACE).block(DEFAULT_SHUTDOWN_GRACE.plusSeconds(10));
    }

    private static long wallClockNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
