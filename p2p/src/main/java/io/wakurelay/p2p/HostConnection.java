package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.connection.Transport;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PublicKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.mux.MuxerSession;
import io.wakurelay.p2p.noise.SecureSession;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.List;

/** An upgraded connection: a channel with Noise and a muxer session in its pipeline. */
final class HostConnection implements Connection {
    private final Channel channel;
    private final MuxerSession session;
    private final SecureSession secure;
    private final boolean outbound;
    private final Transport transport;
    private final Multiaddr remoteAddress;
    private final Multiaddr localAddress;
    private final long establishedNanos = System.nanoTime();
    private final ConnectionUse use = new ConnectionUse(establishedNanos);
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private volatile String closeReason;
    private volatile boolean staticPeer;
    private volatile PeerRecord record;

    HostConnection(Channel channel, MuxerSession session, SecureSession secure, boolean outbound, Transport transport,
                   Multiaddr remoteAddress, Multiaddr localAddress) {
        this.channel = channel;
        this.session = session;
        this.secure = secure;
        this.outbound = outbound;
        this.transport = transport;
        this.remoteAddress = remoteAddress;
        this.localAddress = localAddress;
        this.record = PeerRecord.unknown(secure.remotePeer());
        channel.closeFuture().addListener(f -> closed.tryEmitEmpty());
    }

    @Override
    public PeerId remotePeer() {
        return secure.remotePeer();
    }

    @Override
    public PublicKey remotePublicKey() {
        return secure.remoteKey();
    }

    @Override
    public Multiaddr remoteAddress() {
        return remoteAddress;
    }

    @Override
    public Multiaddr localAddress() {
        return localAddress;
    }

    @Override
    public boolean isOutbound() {
        return outbound;
    }

    @Override
    public Transport transport() {
        return transport;
    }

    @Override
    public String muxer() {
        return session.protocolId();
    }

    @Override
    public EventExecutor executor() {
        return channel.eventLoop();
    }

    @Override
    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public Mono<Stream> openStream(List<String> protocols, StreamHandler handler) {
        return Mono.create(sink -> session.openStream(protocols, handler).addListener(f -> {
            if (f.isSuccess()) {
                sink.success((Stream) f.getNow());
            } else {
                sink.error(f.cause());
            }
        }));
    }

    @Override
    public void close() {
        close("closed_locally");
    }

    /** Closes, recording why (the first reason given is the one counted). */
    void close(String reason) {
        noteCloseReason(reason);
        session.close();
    }

    /** Why the connection ends, if this side decided it; kept if one was set before. */
    void noteCloseReason(String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
    }

    /** The reason counted when the connection ended: this side's, or {@code closed_by_peer}. */
    String closeReason() {
        return closeReason == null ? "closed_by_peer" : closeReason;
    }

    @Override
    public Mono<Void> onClose() {
        return closed.asMono();
    }

    long establishedNanos() {
        return establishedNanos;
    }

    Channel channel() {
        return channel;
    }

    /** What the connection has been good for ({@link ConnectionTrimmer}). */
    ConnectionUse use() {
        return use;
    }

    boolean isStaticPeer() {
        return staticPeer;
    }

    void markStaticPeer() {
        staticPeer = true;
    }

    PeerRecord record() {
        return record;
    }

    void record(PeerRecord record) {
        this.record = record;
    }

    @Override
    public String toString() {
        return (outbound ? "outbound" : "inbound") + " connection to " + remotePeer() + " at " + remoteAddress + " over " + muxer();
    }
}
