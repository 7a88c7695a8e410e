package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.connection.Transport;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.Promise;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.noise.AeadSelection;
import io.wakurelay.p2p.noise.NoiseIdentity;
import io.wakurelay.p2p.ws.WebSocketTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.resources.LoopResources;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A libp2p host: accepts and dials TCP and WebSocket connections, upgrades each with Noise and a muxer (yamux or
 * mplex), serves the protocols registered with {@link #handle} on the peers' streams, answers and asks identify, pings
 * every connection, and keeps one connection per peer within the limits of {@link HostConfig}. It knows nothing of
 * Waku.
 *
 * <p>Runs on Reactor Netty's event loop resources (the native epoll transport when the platform has it); a
 * connection and its streams live on one event loop. docs/p2p.md describes the layers and limits.
 */
public final class Host implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Host.class);
    /** The grace period of {@link #close()}. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

    private final HostConfig config;
    private final AeadSelection aead;
    private final PrivateKey identity;
    private final PeerId peerId;
    private final HostMetrics metrics;
    private final LoopResources loops;
    private final EventLoopGroup group;
    private final boolean nativeTransport;
    private final ConnectionManager manager;
    private final ConnectionUpgrader upgrader;
    private final Map<String, ProtocolHandler> protocols = new ConcurrentHashMap<>();
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final IdentifyService identify;
    private final PingService ping;
    private final StaticPeers staticPeers;
    private final ConnectionTrimmer trimmer;
    private volatile ScheduledFuture<?> trimming;
    private final Dialer dialer;
    private final Sinks.Empty<Void> terminated = Sinks.empty();
    private final WebSocketTransport webSocket;
    private volatile Channel server;
    private volatile Channel webSocketServer;
    private volatile boolean closing;

    private Host(HostConfig config, PrivateKey identity, MeterRegistry registry) {
        this.aead = AeadSelection.start(config.aead()); // first: a refusal leaves nothing started
        this.config = config;
        this.identity = identity;
        this.peerId = PeerId.fromPublicKey(identity.publicKey());
        this.manager = new ConnectionManager(config);
        this.metrics = new HostMetrics(registry, manager::peers);
        metrics.bindAead(aead);
        // before the event loops, so that a certificate that cannot be read stops the start with nothing to undo
        this.webSocket = WebSocketTransport.create(config.webSocket(), metrics.webSocketEvents());
        this.nativeTransport = LoopResources.hasNativeSupport();
        this.loops = LoopResources.create(config.threadNamePrefix(), 1, Runtime.getRuntime().availableProcessors(), true);
        this.group = loops.onServer(nativeTransport);
        this.upgrader = new ConnectionUpgrader(config, NoiseIdentity.create(identity, aead), metrics, protocols::get);
        this.identify = new IdentifyService(identity, config.agentVersion(), this::announcedAddresses,
                () -> List.copyOf(protocols.keySet()), this::identified, metrics);
        this.ping = new PingService(config.pingInterval(), config.pingTimeout(), metrics);
        this.dialer = new Dialer(config, peerId, manager, metrics, upgrader, webSocket, loops, group, () -> closing,
                this::onUpgraded, this::handshakeFailed);
        this.staticPeers = new StaticPeers(this::dialInternal, config.redialMinBackoff(), config.redialMaxBackoff());
        this.trimmer = new ConnectionTrimmer(config.gracePeriod(), config.idleTimeout(), protocols::keySet,
                staticPeers::contains);
        protocols.put(IdentifyService.PROTOCOL, identify.server());
        protocols.put(IdentifyService.PUSH_PROTOCOL, identify.pushServer());
        protocols.put(PingService.PROTOCOL, ping.server());
    }

    /**
     * Starts a host: binds its listen address (before returning) and starts dialling its static peers.
     *
     * @param identity the node's key; its peer id is this host's
     * @param registry where the host registers its meters (docs/metrics.md); one host per registry
     */
    public static Host start(HostConfig config, PrivateKey identity, MeterRegistry registry) {
        Host host = new Host(Objects.requireNonNull(config, "config"), Objects.requireNonNull(identity, "identity"),
                Objects.requireNonNull(registry, "registry"));
        try {
            host.listen();
        } catch (RuntimeException e) {
            host.shutdown(Duration.ZERO).block(Duration.ofSeconds(10));
            throw e;
        }
        config.staticPeers().forEach(host::addStaticPeer);
        long period = host.trimmer.sweepPeriod().toNanos();
        host.trimming = host.group.next().scheduleAtFixedRate(host::sweep, period, period, TimeUnit.NANOSECONDS);
        log.atInfo().addKeyValue("peer", String.valueOf(host.peerId))
                .addKeyValue("listenAddresses", host.listenAddresses().stream().map(String::valueOf).toList())
                .addKeyValue("transport", host.nativeTransport ? "native" : "nio").addKeyValue("muxers", config.muxers())
                .addKeyValue("staticPeers", config.staticPeers().stream().map(String::valueOf).toList())
                .addKeyValue("chacha20Poly1305", host.aead.current().label()).addKeyValue("aead", config.aead().label())
                .log("p2p host started");
        if (host.webSocketServer != null) {
            Multiaddr ws = host.webSocketTransport().on(Multiaddr.of(host.webSocketAddress()));
            log.atInfo().addKeyValue("peer", String.valueOf(host.peerId)).addKeyValue("address", String.valueOf(ws))
                    .log("p2p host: libp2p over WebSocket");
        }
        return host;
    }

    private void listen() {
        if (config.listenAddress() == null) {
            return;
        }
        server = bind(config.listenAddress(), Transport.TCP);
        if (config.webSocket().listen()) {
            InetSocketAddress address = new InetSocketAddress(config.listenAddress().getAddress(),
                    config.webSocket().port());
            webSocketServer = bind(address, webSocketTransport());
        }
    }

    private Channel bind(InetSocketAddress address, Transport transport) {
        return ServerSockets.bind(loops, nativeTransport, group, config, address, transport, this::accept);
    }

    private Transport webSocketTransport() {
        return webSocket.secure() ? Transport.WSS : Transport.WS;
    }

    /** A socket a peer opened, before anything was read from it. */
    private void accept(Channel channel, Transport transport) {
        if (closing) {
            metrics.rejected("shutting_down", transport);
            channel.close();
            return;
        }
        InetAddress from = ((InetSocketAddress) channel.remoteAddress()).getAddress();
        ConnectionManager.Admission admission = manager.openInbound(channel, from);
        HostConnection victim = null;
        if (admission instanceof ConnectionManager.Admission.Full) {
            // the trimmer is asked outside the manager's lock: it asks the relay and the services in turn
            victim = trimmer.victim(manager.inboundConnections(), System.nanoTime());
            admission = victim == null
                    ? new ConnectionManager.Admission.Refused(ConnectionManager.Refusal.TOO_MANY_CONNECTIONS)
                    : manager.evictFor(channel, from, victim);
        }
        if (admission instanceof ConnectionManager.Admission.Refused refused) {
            metrics.rejected(refused.refusal().label(), transport);
            log.atDebug().addKeyValue("address", from.getHostAddress()).addKeyValue("reason", refused.refusal().label())
                    .log("refusing a connection");
            channel.close();
            return;
        }
        channel.closeFuture().addListener(f -> manager.closedInbound(channel));
        Channel evicted = ((ConnectionManager.Admission.Admitted) admission).evicted();
        if (evicted != null && victim != null && evicted == victim.channel()) {
            log.atDebug().addKeyValue("address", from.getHostAddress())
                    .addKeyValue("peer", String.valueOf(victim.remotePeer()))
                    .addKeyValue("usefulness", String.valueOf(trimmer.usefulness(victim)))
                    .log("every inbound slot is taken: a new connection takes the slot of the peer");
            victim.close(ConnectionTrimmer.EVICTED);
        } else if (evicted != null) {
            log.atDebug().addKeyValue("address", from.getHostAddress())
                    .addKeyValue("evicted", String.valueOf(evicted.remoteAddress()))
                    .log("every inbound slot is taken: a new connection takes the slot of the one handshaking longest");
            evicted.pipeline().fireUserEventTriggered(UpgradeLifecycle.EVICTION);
        }
        Promise<HostConnection> upgraded = channel.eventLoop().newPromise();
        upgrader.init(channel, false, null, upgraded, transport,
                transport == Transport.TCP ? ConnectionUpgrader.Prelude.NONE : webSocket::installListening);
        upgraded.addListener(f -> {
            if (!f.isSuccess()) {
                handshakeFailed(f.cause(), transport);
                return;
            }
            if (!manager.upgraded(channel)) {
                // evicted while its last handshake message was on its way: the slot is someone else's now
                metrics.handshake(UpgradeLifecycle.EVICTED, transport);
                channel.close();
                return;
            }
            try {
                onUpgraded(upgraded.getNow());
            } catch (P2pException e) {
                log.atDebug().addKeyValue("reason", e.getMessage()).log("inbound connection refused");
            }
        });
    }

    private void handshakeFailed(Throwable cause, Transport transport) {
        metrics.handshake(cause instanceof HandshakeException h ? h.outcome() : "error", transport);
        log.atDebug().addKeyValue("reason", cause.toString()).log("handshake failed");
    }

    /** An upgraded connection: registered, or closed as a duplicate (the connection kept is returned). */
    private HostConnection onUpgraded(HostConnection connection) {
        metrics.handshake("success", connection.transport());
        if (connection.remotePeer().equals(peerId)) {
            connection.close("self_dial");
            throw new P2pException("connected to itself at " + connection.remoteAddress());
        }
        if (closing) {
            connection.close("shutting_down");
            throw new P2pException.ConnectionClosed("the host is shutting down");
        }
        ConnectionManager.Registration registration = manager.register(connection, peerId);
        if (registration instanceof ConnectionManager.Registration.Duplicate duplicate) {
            log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                    .addKeyValue("address", String.valueOf(connection.remoteAddress()))
                    .log("already connected to the peer; closing the newer connection");
            metrics.rejected("duplicate", connection.transport());
            connection.close("duplicate");
            return duplicate.kept();
        }
        if (registration instanceof ConnectionManager.Registration.Replaces replaces) {
            log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                    .addKeyValue("address", String.valueOf(connection.remoteAddress()))
                    .addKeyValue("replaced", String.valueOf(replaces.replaced().remoteAddress()))
                    .log("two connections to the peer opened at once; both sides keep the same one");
            replaces.replaced().close("duplicate");
        }
        activate(connection);
        return connection;
    }

    private void activate(HostConnection connection) {
        metrics.connectionOpened(connection);
        connection.channel().closeFuture().addListener(f -> deactivate(connection));
        log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                .addKeyValue("address", String.valueOf(connection.remoteAddress()))
                .addKeyValue("direction", connection.isOutbound() ? "outbound" : "inbound").log("connected");
        for (ConnectionListener listener : listeners) {
            try {
                listener.onConnected(connection);
            } catch (RuntimeException e) {
                log.atWarn().addKeyValue("peer", String.valueOf(connection.remotePeer())).setCause(e)
                        .log("connection listener failed");
            }
        }
        identify.identify(connection);
        ping.start(connection);
    }

    private void deactivate(HostConnection connection) {
        manager.unregister(connection);
        metrics.connectionClosed(connection);
        metrics.disconnected(connection.closeReason());
        log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                .addKeyValue("address", String.valueOf(connection.remoteAddress()))
                .addKeyValue("reason", connection.closeReason()).log("disconnected");
        for (ConnectionListener listener : listeners) {
            try {
                listener.onDisconnected(connection);
            } catch (RuntimeException e) {
                log.atWarn().addKeyValue("peer", String.valueOf(connection.remotePeer())).setCause(e)
                        .log("connection listener failed");
            }
        }
    }

    private void identified(HostConnection connection, PeerRecord record) {
        for (ConnectionListener listener : listeners) {
            try {
                listener.onIdentified(connection, record);
            } catch (RuntimeException e) {
                log.atWarn().addKeyValue("peer", String.valueOf(connection.remotePeer())).setCause(e)
                        .log("connection listener failed");
            }
        }
    }

    // ---- dialling

    /**
     * Connects to the peer at {@code address} (TCP, or WebSocket: {@code /ws}, {@code /wss}, {@code /tls/ws}; with
     * {@code /p2p/<peer id>} the peer must prove that id). An
     * existing connection to that peer is returned instead of a new one; concurrent dials to one peer share one
     * attempt.
     */
    public Mono<Connection> dial(Multiaddr address) {
        return dialInternal(address).cast(Connection.class);
    }

    private Mono<HostConnection> dialInternal(Multiaddr address) {
        return dialer.dial(address);
    }

    // ---- protocols, peers, addresses

    /** Serves {@code protocol} on the streams peers open; replaces an earlier handler of the same id. */
    public void handle(String protocol, ProtocolHandler handler) {
        protocols.put(Objects.requireNonNull(protocol, "protocol"), Objects.requireNonNull(handler, "handler"));
    }

    public void unhandle(String protocol) {
        protocols.remove(protocol);
    }

    /** The protocol ids this host serves (what identify tells peers). */
    public Set<String> protocols() {
        return Collections.unmodifiableSet(protocols.keySet());
    }

    /**
     * Tells the host which peers to keep and what the others are worth when it trims inbound connections (ADR 0086):
     * the relay's mesh peers, the services' clients in use.
     */
    public void addPeerValues(PeerValues values) {
        trimmer.add(Objects.requireNonNull(values, "values"));
    }

    public void removePeerValues(PeerValues values) {
        trimmer.remove(values);
    }

    /** Closes the inbound connections not worth their slot (ConnectionTrimmer); on an event loop, every second at most. */
    private void sweep() {
        try {
            trimmer.sweep(manager.inboundConnections(), System.nanoTime());
        } catch (RuntimeException e) {
            log.warn("trimming connections failed", e);
        }
    }

    public void addListener(ConnectionListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeListener(ConnectionListener listener) {
        listeners.remove(listener);
    }

    public PeerId peerId() {
        return peerId;
    }

    public PrivateKey identity() {
        return identity;
    }

    public Optional<Connection> connection(PeerId peer) {
        HostConnection c = manager.connection(peer);
        return c != null && c.isOpen() ? Optional.of(c) : Optional.empty();
    }

    /** One connection per connected peer. */
    public List<Connection> connections() {
        return new ArrayList<>(manager.connections());
    }

    /** Sockets counted against the connection limits, handshaken or not (tests wait on it). */
    int countedSockets() {
        return manager.sockets();
    }

    /** What identify said of a connected peer (an empty record before identify finished), or empty. */
    public Optional<PeerRecord> peer(PeerId peer) {
        HostConnection c = manager.connection(peer);
        return c == null ? Optional.empty() : Optional.of(c.record());
    }

    /** True when the connection to {@code peer} was dialled to it as a static peer. */
    public boolean isStaticConnection(Connection connection) {
        return connection instanceof HostConnection c && c.isStaticPeer();
    }

    /**
     * Dials {@code address} now and keeps the peer connected (its address must name its peer id). The Mono completes
     * once the first dial has ended, connected or failed; the peer is dialled whether or not it is subscribed to.
     */
    public Mono<Void> addStaticPeer(Multiaddr address) {
        if (closing) {
            throw new P2pException.ConnectionClosed("the host is shutting down");
        }
        return Mono.fromFuture(staticPeers.add(address), true); // a waiter giving up cancels nothing shared
    }

    /** Stops keeping {@code peer} connected and closes its connection. */
    public boolean removeStaticPeer(PeerId peer) {
        boolean removed = staticPeers.remove(peer);
        HostConnection c = manager.connection(peer);
        if (removed && c != null) {
            c.close("peer_removed");
        }
        return removed;
    }

    public List<Multiaddr> staticPeers() {
        return staticPeers.addresses();
    }

    /** Where this host accepts TCP connections (the port actually bound), or null when it does not listen. */
    public InetSocketAddress boundAddress() {
        Channel s = server;
        return s == null ? null : (InetSocketAddress) s.localAddress();
    }

    /** Where this host accepts WebSocket connections (the port actually bound), or null when it does not. */
    public InetSocketAddress webSocketAddress() {
        Channel s = webSocketServer;
        return s == null ? null : (InetSocketAddress) s.localAddress();
    }

    /** The addresses peers should dial, each ending in {@code /p2p/<peer id>}. */
    public List<Multiaddr> listenAddresses() {
        return announcedAddresses().stream().map(a -> a.withPeerId(peerId)).toList();
    }

    /** The addresses identify announces ({@link AnnouncedAddresses}), without {@code /p2p}. */
    private List<Multiaddr> announcedAddresses() {
        return AnnouncedAddresses.of(config, boundAddress(), webSocketAddress(), webSocketTransport());
    }

    // ---- shutdown

    /**
     * Shuts down: stops accepting and dialling, closes every connection (yamux says go-away first) and waits up to
     * {@code grace} for them to close, then stops the event loops. Idempotent; completes when done.
     */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        return Mono.defer(() -> {
            boolean first;
            synchronized (dialer) { // no dial starts once this is set (Dialer.connect)
                first = !closing;
                closing = true;
            }
            if (first) {
                beginShutdown(grace);
            }
            return terminated.asMono();
        });
    }

    private void beginShutdown(Duration grace) {
        log.atInfo().addKeyValue("peer", String.valueOf(peerId)).log("p2p host shutting down");
        staticPeers.close();
        if (trimming != null) {
            trimming.cancel(false);
        }
        // the listeners close before the event loops end, whatever the grace: a connection accepted onto an event loop
        // that had ended was Netty's RejectedExecutionException and its trace
        List<ChannelFuture> ending = new ArrayList<>();
        for (Channel s : new Channel[]{server, webSocketServer}) {
            if (s != null) {
                ending.add(s.close());
            }
        }
        List<HostConnection> open = manager.connections();
        open.forEach(c -> c.close("shutting_down"));
        Flux.fromIterable(open).flatMap(Connection::onClose).then()
                .timeout(grace.isZero() ? Duration.ofMillis(1) : grace)
                .onErrorResume(TimeoutException.class, e -> Mono.empty())
                .then(Flux.fromIterable(ending).flatMap(f -> Mono.<Void>create(sink -> f.addListener(done -> sink.success())))
                        .then().timeout(Duration.ofSeconds(5)).onErrorResume(TimeoutException.class, e -> Mono.empty()))
                .then(loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)))
                .doFinally(signal -> {
                    log.atInfo().addKeyValue("peer", String.valueOf(peerId)).log("p2p host shut down");
                    terminated.tryEmitEmpty();
                })
                .subscribe(null, e -> log.atWarn().addKeyValue("reason", e.toString()).log("p2p host shutdown failed"));
    }

    /** {@code shutdown(DEFAULT_SHUTDOWN_GRACE)}, blocking. */
    @Override
    public void close() {
        shutdown(DEFAULT_SHUTDOWN_GRACE).block(DEFAULT_SHUTDOWN_GRACE.plusSeconds(10));
    }
}
