package io.wakurelay.p2p;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.WebSocketTransport;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.resources.LoopResources;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * The host's dials: TCP and WebSocket, one attempt per peer at a time, an existing connection returned instead of a
 * new one, each dial taking a slot of the {@link ConnectionManager} before it connects. The upgraded connection is
 * handed to the host ({@code onUpgraded}), which registers it or closes it as a duplicate.
 */
final class Dialer {
    private final HostConfig config;
    private final PeerId peerId;
    private final ConnectionManager manager;
    private final HostMetrics metrics;
    private final ConnectionUpgrader upgrader;
    private final WebSocketTransport webSocket;
    private final LoopResources loops;
    private final EventLoopGroup group;
    private final BooleanSupplier closing;
    private final UnaryOperator<HostConnection> onUpgraded;
    private final BiConsumer<Throwable, Transport> handshakeFailed;
    private final Map<Object, Mono<HostConnection>> dialsInProgress = new ConcurrentHashMap<>();

    /**
     * @param onUpgraded      registers an upgraded connection and returns the one kept (or throws when refused)
     * @param handshakeFailed counts a failed handshake
     */
    Dialer(HostConfig config, PeerId peerId, ConnectionManager manager, HostMetrics metrics, ConnectionUpgrader upgrader,
           WebSocketTransport webSocket, LoopResources loops, EventLoopGroup group, BooleanSupplier closing,
           UnaryOperator<HostConnection> onUpgraded, BiConsumer<Throwable, Transport> handshakeFailed) {
        this.config = config;
        this.peerId = peerId;
        this.manager = manager;
        this.metrics = metrics;
        this.upgrader = upgrader;
        this.webSocket = webSocket;
        this.loops = loops;
        this.group = group;
        this.closing = closing;
        this.onUpgraded = onUpgraded;
        this.handshakeFailed = handshakeFailed;
    }

    Mono<HostConnection> dial(Multiaddr address) {
        return Mono.defer(() -> {
            if (closing.getAsBoolean()) {
                return Mono.error(new P2pException.ConnectionClosed("the host is shutting down"));
            }
            if (!address.isTcp() && !address.isWebSocket()) {
                return Mono.error(new P2pException("only TCP and WebSocket addresses can be dialled: " + address));
            }
            Optional<PeerId> expected = address.peerId();
            if (expected.isPresent()) {
                if (expected.get().equals(peerId)) {
                    return Mono.error(new P2pException("refusing to dial this host's own peer id " + peerId));
                }
                HostConnection existing = manager.connection(expected.get());
                if (existing != null && existing.isOpen()) {
                    return Mono.just(existing);
                }
            }
            Object key = expected.isPresent() ? expected.get() : address;
            Mono<HostConnection> attempt = dialsInProgress.computeIfAbsent(key, k -> resolve(address)
                    .flatMap(target -> connect(target, expected.orElse(null), address))
                    .doFinally(s -> dialsInProgress.remove(k))
                    .cache());
            return attempt;
        });
    }

    private static Mono<InetSocketAddress> resolve(Multiaddr address) {
        InetSocketAddress target = address.toSocketAddress();
        if (!target.isUnresolved()) {
            return Mono.just(target);
        }
        return Mono.fromCallable(() -> {
            InetSocketAddress resolved = new InetSocketAddress(target.getHostString(), target.getPort());
            if (resolved.isUnresolved()) {
                throw new P2pException("cannot resolve " + target.getHostString());
            }
            return resolved;
        }).subscribeOn(Schedulers.boundedElastic());
    }

    private Mono<HostConnection> connect(InetSocketAddress target, PeerId expected, Multiaddr address) {
        Transport transport = Transport.of(address);
        ConnectionUpgrader.Prelude prelude = transport == Transport.TCP ? ConnectionUpgrader.Prelude.NONE
                : (pipeline, before, ready) -> webSocket.installDialling(pipeline, before,
                address.tlsServerName().orElse(target.getAddress().getHostAddress()), target.getPort(),
                transport == Transport.WSS, ready);
        return Mono.create(sink -> {
            if (!manager.openOutbound()) {
                metrics.dial("no_slot", transport);
                sink.error(new P2pException("no connection slot free to dial " + target + " (max " + config.maxConnections() + ")"));
                return;
            }
            // told on the thread that ends the upgrade (the connection's event loop): a dial that ends as the loops
            // stop must not be told on another loop that has already ended
            Promise<HostConnection> upgraded = ImmediateEventExecutor.INSTANCE.newPromise();
            Bootstrap bootstrap = new Bootstrap()
                    .group(group)
                    .channel(loops.onChannelClass(SocketChannel.class, group))
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, ServerSockets.waterMark(config))
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.handshakeTimeout().toMillis()))
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            upgrader.init(channel, true, expected, upgraded, transport, prelude);
                        }
                    });
            InetSocketAddress source = sourceAddressFor(target);
            ChannelFuture connected;
            // under the monitor the host's shutdown holds to set closing: no dial, nor a listener of one, reaches an
            // event loop that has ended (Netty's RejectedExecutionException and its trace)
            synchronized (this) {
                if (closing.getAsBoolean()) {
                    manager.closedOutbound();
                    sink.error(new P2pException.ConnectionClosed("the host is shutting down"));
                    return;
                }
                connected = source == null ? bootstrap.connect(target) : bootstrap.connect(target, source);
                connected.channel().closeFuture().addListener(f -> manager.closedOutbound());
                connected.addListener(f -> {
                    if (!f.isSuccess()) {
                        upgraded.tryFailure(new P2pException("could not connect to " + target + ": " + f.cause(), f.cause()));
                    }
                });
            }
            Channel channel = connected.channel();
            upgraded.addListener(f -> {
                if (!f.isSuccess()) {
                    metrics.dial(f.cause() instanceof HandshakeException ? "handshake_failed" : "connect_failed",
                            transport);
                    if (f.cause() instanceof HandshakeException) {
                        handshakeFailed.accept(f.cause(), transport);
                    }
                    sink.error(f.cause());
                    return;
                }
                try {
                    HostConnection connection = onUpgraded.apply(upgraded.getNow());
                    metrics.dial("success", transport);
                    sink.success(connection);
                } catch (RuntimeException e) {
                    metrics.dial("refused", transport);
                    sink.error(e);
                }
            });
            sink.onCancel(() -> {
                if (!upgraded.isDone()) {
                    channel.close();
                }
            });
        });
    }

    /**
     * A host bound to one address dials from it too, so that peers see its connections come from its own address
     * (several nodes on one machine on 127.0.0.x are then told apart, as gossipsub's IP colocation score expects);
     * only when the target is reachable from it (loopback to loopback, or a routable bind address).
     */
    private InetSocketAddress sourceAddressFor(InetSocketAddress target) {
        InetSocketAddress listen = config.listenAddress();
        if (listen == null || listen.getAddress().isAnyLocalAddress()
                || listen.getAddress().isLoopbackAddress() != target.getAddress().isLoopbackAddress()
                || (listen.getAddress() instanceof Inet6Address) != (target.getAddress() instanceof Inet6Address)) {
            return null;
        }
        return new InetSocketAddress(listen.getAddress(), 0);
    }
}
