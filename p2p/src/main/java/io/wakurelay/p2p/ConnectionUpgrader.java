package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.Transport;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.util.concurrent.Promise;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.mss.MultistreamHandler;
import io.wakurelay.p2p.mss.MultistreamSelect;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.mux.MplexSession;
import io.wakurelay.p2p.mux.MuxerEvents;
import io.wakurelay.p2p.mux.MuxerException;
import io.wakurelay.p2p.mux.MuxerSession;
import io.wakurelay.p2p.mux.ProtocolRegistry;
import io.wakurelay.p2p.mux.YamuxSession;
import io.wakurelay.p2p.noise.NoiseHandshakeHandler;
import io.wakurelay.p2p.noise.NoiseIdentity;
import io.wakurelay.p2p.noise.SecureSession;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns a new socket into a libp2p connection: multistream-select chooses {@code /noise}, the Noise handshake proves
 * the peer's identity, multistream-select (encrypted now) chooses the muxer, and the muxer session takes over.
 * Each step replaces the one before it in the pipeline:
 * <pre>
 * bytes → [prelude] → security-select → noise-handshake → noise-encoder, noise-decoder → muxer-select → muxer
 *       → lifecycle
 * </pre>
 * where the prelude is nothing on TCP, and TLS and the HTTP upgrade to binary WebSocket frames on WebSocket ({@link
 * io.wakurelay.p2p.ws.WebSocketTransport}); with a {@link FirstBytesDeadline} in front of an inbound socket until its
 * first bytes, and a {@link WriteStallGuard} in front of all of them, next to the socket, from the first byte (a
 * WebSocket peer can make the host write pongs before libp2p's upgrade: issue 43, N2).
 */
final class ConnectionUpgrader {
    private static final Logger log = LoggerFactory.getLogger(ConnectionUpgrader.class);
    private static final String LIFECYCLE = "lifecycle";
    /** The disconnect reason of a connection closed by its {@link WriteStallGuard}. */
    static final String WRITE_STALLED = "write_stalled";

    private final HostConfig config;
    private final NoiseIdentity noise;
    private final HostMetrics metrics;
    private final Map<Transport, ByteCounter> byteCounters = new EnumMap<>(Transport.class);
    private final ProtocolRegistry protocols;

    ConnectionUpgrader(HostConfig config, NoiseIdentity noise, HostMetrics metrics, ProtocolRegistry protocols) {
        this.config = config;
        this.noise = noise;
        this.metrics = metrics;
        for (Transport t : Transport.values()) {
            byteCounters.put(t, new ByteCounter(metrics, t));
        }
        this.protocols = protocols;
    }

    /**
     * What goes on a socket before libp2p's upgrade: nothing for TCP ({@link #NONE}); TLS and the HTTP upgrade for
     * WebSocket. It puts its handlers before the handler named {@code before} and runs {@code ready} once the bytes
     * that follow are libp2p's.
     */
    interface Prelude {
        Prelude NONE = (pipeline, before, ready) -> ready.run();

        void install(ChannelPipeline pipeline, String before, Runnable ready);
    }

    /**
     * Sets up the pipeline of a socket that was just opened:
     * <pre>
     * write-stall → first-bytes (inbound) → bytes → the transport's prelude → security-select → … → lifecycle
     * </pre>
     * The handshake deadline runs from now, so it covers the prelude (a WebSocket upgrade) too.
     *
     * @param expected the peer a dial expects (null: any)
     * @param result   completes with the upgraded (not yet registered) connection, or a {@link HandshakeException}
     */
    void init(Channel channel, boolean outbound, PeerId expected, Promise<HostConnection> result, Transport transport,
              Prelude prelude) {
        UpgradeLifecycle lifecycle = new UpgradeLifecycle(result, config.handshakeTimeout());
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast(LIFECYCLE, lifecycle);
        pipeline.addFirst("bytes", byteCounters.get(transport));
        if (!outbound) {
            pipeline.addFirst("first-bytes", new FirstBytesDeadline(config.firstBytesTimeout()));
        }
        pipeline.addFirst("write-stall", new WriteStallGuard(config.writeStallTimeout(), () -> {
            log.atDebug().addKeyValue("address", String.valueOf(channel.remoteAddress()))
                    .addKeyValue("timeout", String.valueOf(config.writeStallTimeout()))
                    .log("the peer took nothing of what waits for it in time; closing");
            lifecycle.writeStalled(WRITE_STALLED);
        }));
        MultistreamSelect security = outbound
                ? MultistreamSelect.dialer(List.of(NoiseHandshakeHandler.PROTOCOL_ID))
                : MultistreamSelect.listener(NoiseHandshakeHandler.PROTOCOL_ID::equals);
        prelude.install(pipeline, LIFECYCLE, () -> pipeline.addBefore(LIFECYCLE, "security-select",
                new MultistreamHandler(security, (ctx, protocol) -> ctx.pipeline().addAfter(ctx.name(),
                        "noise-handshake", new NoiseHandshakeHandler(outbound, noise, expected, metrics,
                                (noiseCtx, peer) -> secured(noiseCtx, peer, outbound, lifecycle, transport))))));
    }

    private void secured(ChannelHandlerContext ctx, SecureSession peer, boolean outbound, UpgradeLifecycle lifecycle,
                         Transport transport) {
        MultistreamSelect muxerSelect = outbound
                ? MultistreamSelect.dialer(config.muxers())
                : MultistreamSelect.listener(config.muxers()::contains);
        ctx.pipeline().addBefore(LIFECYCLE, "muxer-select", new MultistreamHandler(muxerSelect,
                (selectCtx, muxer) -> muxed(selectCtx, muxer, peer, outbound, lifecycle, transport)));
    }

    private void muxed(ChannelHandlerContext ctx, String muxer, SecureSession peer, boolean outbound,
                       UpgradeLifecycle lifecycle, Transport transport) {
        AtomicReference<HostConnection> connection = new AtomicReference<>();
        MuxerEvents events = eventsOf(connection);
        MuxerSession session = YamuxSession.PROTOCOL_ID.equals(muxer)
                ? new YamuxSession(outbound, protocols, config.muxerLimits(), events)
                : new MplexSession(outbound, protocols, config.muxerLimits(), events);
        Channel channel = ctx.channel();
        HostConnection upgraded = new HostConnection(channel, session, peer, outbound, transport,
                address(channel.remoteAddress(), transport), address(channel.localAddress(), transport));
        connection.set(upgraded);
        session.bind(upgraded);
        ctx.pipeline().addAfter(ctx.name(), "muxer", session);
        lifecycle.upgraded(upgraded);
    }

    /** The host's counting events, and a muxer violation noted as the reason the connection ends. */
    private MuxerEvents eventsOf(AtomicReference<HostConnection> connection) {
        MuxerEvents counted = metrics.muxerEvents();
        return new MuxerEvents() {
            @Override
            public void streamOpened(Stream stream) {
                counted.streamOpened(stream);
                connection.get().use().streamOpened(stream.protocol());
            }

            @Override
            public void streamClosed(Stream stream) {
                counted.streamClosed(stream);
                connection.get().use().streamClosed(stream.protocol(), System.nanoTime());
            }

            @Override
            public void streamRefused(String reason) {
                counted.streamRefused(reason);
            }

            @Override
            public void negotiationFailed(String reason) {
                counted.negotiationFailed(reason);
            }

            @Override
            public void streamOverflow(Stream stream) {
                counted.streamOverflow(stream);
            }

            @Override
            public void replyDropped(String reply) {
                counted.replyDropped(reply);
            }

            @Override
            public void readPaused(String reason) {
                counted.readPaused(reason);
            }

            @Override
            public void violation(MuxerException e) {
                connection.get().noteCloseReason(e.reason());
            }
        };
    }

    private static Multiaddr address(java.net.SocketAddress address, Transport transport) {
        return address instanceof InetSocketAddress inet ? transport.on(Multiaddr.of(inet)) : null;
    }
}
