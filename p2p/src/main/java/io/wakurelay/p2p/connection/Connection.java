package io.wakurelay.p2p.connection;

import io.netty.util.concurrent.EventExecutor;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PublicKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * A secured, multiplexed connection to one peer, whose identity the Noise handshake proved. Streams are opened
 * with {@link #openStream}; the peer's streams reach the host's {@link ProtocolHandler}s.
 */
public interface Connection {
    PeerId remotePeer();

    PublicKey remotePublicKey();

    /** The peer's address as this connection sees it (its source address for inbound connections). */
    Multiaddr remoteAddress();

    Multiaddr localAddress();

    /** True when this node dialled the connection. */
    boolean isOutbound();

    /** What the connection's bytes travel on: TCP, or WebSocket ({@code /ws}, {@code /wss}). */
    Transport transport();

    /** The stream multiplexer: {@code /yamux/1.0.0} or {@code /mplex/6.7.0}. */
    String muxer();

    EventExecutor executor();

    boolean isOpen();

    /**
     * Opens a stream and negotiates the first of {@code protocols} the peer supports.
     *
     * @return the open stream (its handler's {@link StreamHandler#onOpen} has run); errors with
     * {@link io.wakurelay.p2p.mss.NegotiationException.NotSupported} when the peer supports none of them, or
     * with {@link P2pException} when the connection or the stream ended first
     */
    Mono<Stream> openStream(List<String> protocols, StreamHandler handler);

    default Mono<Stream> openStream(String protocol, StreamHandler handler) {
        return openStream(List.of(protocol), handler);
    }

    /** Closes the connection (its streams end with it). Idempotent. */
    void close();

    /** Completes when the connection is closed. */
    Mono<Void> onClose();
}
