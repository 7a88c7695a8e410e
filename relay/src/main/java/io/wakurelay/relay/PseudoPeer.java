package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;

import java.util.Objects;

/**
 * The receive path without a connection, for an in-process pseudo-peer (the load generator plays a peer's relay stream
 * through it): each RPC goes where a peer's goes (message id, seen cache, decode, validation, RFC 14 hash, forwarding
 * to the mesh, the hand-over to the local consumer), from no peer, so nothing is scored and no per-peer budget
 * applies. When the local consumer falls behind the hand-over pauses {@code source}, as it pauses a peer's stream.
 * Call it from one thread at a time.
 */
public final class PseudoPeer {
    private final GossipRouter router;
    private final Source source;

    private PseudoPeer(GossipRouter router, Source source) {
        this.router = router;
        this.source = source;
    }

    /**
     * A pseudo-peer of {@code relay} whose deliveries {@code source} paces.
     *
     * @throws RelayClosedException after the relay's shutdown
     */
    public static PseudoPeer of(Relay relay, Source source) {
        relay.checkOpen();
        return new PseudoPeer(relay.router(), Objects.requireNonNull(source, "source"));
    }

    /**
     * One RPC as a peer writes it, without its length prefix. {@code rpc} stays the caller's: the relay takes its own
     * references to what it keeps. A malformed RPC is counted ({@code malformed_rpc}) and dropped.
     */
    public void receive(ByteBuf rpc) {
        router.onRpc(null, rpc, source);
    }
}
