package io.wakurelay.relay;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslProvider;
import io.wakurelay.protocol.proto.Goodbye;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.NettyPipeline;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import javax.net.ssl.SSLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TLS for one relay's peer connections (ADR 0030): the server and client contexts built from its
 * {@link TlsConfig}, and a handler after Netty's SslHandler that counts failed handshakes and bounds how many
 * inbound handshakes may be in progress. A connection reaches the relay (its connection slot, its Hello, the
 * frame decoder) only once its handshake has succeeded: Reactor Netty signals the connection after that.
 */
final class PeerTls {
    private static final Logger log = LoggerFactory.getLogger(PeerTls.class);
    /** Both ends are this software: the newest version, nothing to negotiate down to. */
    static final String PROTOCOL = "TLSv1.3";
    private static final String OBSERVER = "wakurelay.tls";

    private final SslContext serverContext;
    private final SslContext clientContext;
    private final Duration handshakeTimeout;
    private final int maxInboundHandshakes;
    private final RelayMetrics metrics;
    private final AtomicInteger inboundHandshakes = new AtomicInteger();

    private PeerTls(SslContext serverContext, SslContext clientContext, Duration handshakeTimeout,
                    int maxInboundHandshakes, RelayMetrics metrics) {
        this.serverContext = serverContext;
        this.clientContext = clientContext;
        this.handshakeTimeout = handshakeTimeout;
        this.maxInboundHandshakes = maxInboundHandshakes;
        this.metrics = metrics;
    }

    /**
     * Reads the config's files (again: they may have been replaced since the config was validated) and builds the
     * contexts. Inbound handshakes in progress are bounded by {@code maxConnections}, as open connections are.
     */
    static PeerTls create(TlsConfig config, Duration handshakeTimeout, int maxConnections, RelayMetrics metrics) {
        TlsMaterial material = TlsMaterial.load(config.certificateChain(), config.privateKey(), config.trustedCertificates());
        try {
            SslContext server = SslContextBuilder.forServer(material.privateKey(), material.certificateChain())
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOL)
                    .trustManager(material.trusted())
                    .clientAuth(config.requireClientAuth() ? ClientAuth.REQUIRE : ClientAuth.NONE)
                    .build();
            SslContext client = SslContextBuilder.forClient()
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOL)
                    .keyManager(material.privateKey(), material.certificateChain())
                    .trustManager(material.trusted())
                    // peers are dialled by address and identified by the CA's signature, not by a name (ADR 0030)
                    .endpointIdentificationAlgorithm(null)
                    .build();
            return new PeerTls(server, client, handshakeTimeout, maxConnections, metrics);
        } catch (SSLException e) {
            throw new IllegalArgumentException("TLS: cannot build the context from " + config + ": " + e.getMessage(), e);
        }
    }

    TcpServer secure(TcpServer server) {
        return server.secure(spec -> spec.sslContext(serverContext).handshakeTimeout(handshakeTimeout))
                .doOnChannelInit((observer, channel, remote) ->
                        channel.pipeline().addAfter(NettyPipeline.SslHandler, OBSERVER, new HandshakeObserver(Direction.INBOUND)));
    }

    TcpClient secure(TcpClient client) {
        return client.secure(spec -> spec.sslContext(clientContext).handshakeTimeout(handshakeTimeout))
                .doOnChannelInit((observer, channel, remote) ->
                        channel.pipeline().addAfter(NettyPipeline.SslHandler, OBSERVER, new HandshakeObserver(Direction.OUTBOUND)));
    }

    /**
     * Sees each connection's handshake through: counts a failure as {@code rejected{reason="tls"}} and, inbound,
     * keeps the failure to itself (a plaintext or untrusted peer is an expected event, not an error for Reactor
     * Netty to log) and holds one of {@code maxConnections} handshake places while the handshake runs, so a flood
     * of connections that never complete one costs bounded memory. Outbound failures go on to fail the dial.
     */
    private final class HandshakeObserver extends ChannelInboundHandlerAdapter {
        private final Direction direction;
        private boolean holdsPlace;
        private boolean done;

        HandshakeObserver(Direction direction) {
            this.direction = direction;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (direction == Direction.INBOUND) {
                if (inboundHandshakes.incrementAndGet() > maxInboundHandshakes) {
                    inboundHandshakes.decrementAndGet();
                    done = true;
                    metrics.rejected(Goodbye.Reason.TOO_MANY_CONNECTIONS);
                    log.debug("refusing connection from {}: {} TLS handshakes in progress", ctx.channel().remoteAddress(), maxInboundHandshakes);
                    ctx.close();
                    return;
                }
                holdsPlace = true;
            }
            ctx.fireChannelActive();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof SslHandshakeCompletionEvent completion && !done) {
                done = true;
                leave();
                if (completion.isSuccess()) {
                    ctx.pipeline().remove(this);
                } else {
                    metrics.rejected(RelayMetrics.TLS);
                    log.debug("TLS handshake {} {} failed: {}", direction.label(), ctx.channel().remoteAddress(), completion.cause().toString());
                    if (direction == Direction.INBOUND) {
                        ctx.close();
                        return;
                    }
                }
            }
            ctx.fireUserEventTriggered(event);
        }

        /** Only errors before a successful handshake get here (this handler leaves the pipeline then). */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (direction == Direction.INBOUND) {
                // the handshake failure itself (counted by its completion event) or a reset during it
                log.debug("TLS connection {} failed before its handshake completed: {}", ctx.channel().remoteAddress(), cause.toString());
                ctx.close();
                return;
            }
            ctx.fireExceptionCaught(cause);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            leave();
            ctx.fireChannelInactive();
        }

        private void leave() {
            if (holdsPlace) {
                holdsPlace = false;
                inboundHandshakes.decrementAndGet();
            }
        }
    }
}
