package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.Stream;
import io.wakurelay.p2p.StreamHandler;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.WireFormatException;
import io.wakurelay.protocol.Violation;

/**
 * Reads the RPCs a peer writes on the relay stream it opened to this node: length-prefixed, at most
 * {@code maxRpcSize} each, handed to the router one at a time as retained slices of the decrypted buffers. When
 * the local consumer falls behind, the router pauses this source: the RPCs already read wait here and the stream
 * stops granting the peer credit until it resumes.
 */
final class RelayStreamReader implements StreamHandler, Source {
    private final GossipRouter router;
    private final PeerState peer;
    private final RelayMetrics metrics;
    private final int maxRpcSize;
    private Stream stream;
    private LengthPrefixedReader reader;
    private volatile boolean paused;

    RelayStreamReader(GossipRouter router, PeerState peer, RelayMetrics metrics, int maxRpcSize) {
        this.router = router;
        this.peer = peer;
        this.metrics = metrics;
        this.maxRpcSize = maxRpcSize;
    }

    @Override
    public void onOpen(Stream s) {
        stream = s;
        reader = new LengthPrefixedReader(s.alloc(), maxRpcSize);
    }

    @Override
    public void onData(Stream s, ByteBuf data) {
        reader.add(data);
        process();
    }

    private void process() {
        while (!paused && stream.isOpen()) {
            ByteBuf rpc;
            try {
                rpc = reader.next();
            } catch (WireFormatException e) {
                metrics.invalid(e.getMessage().contains("exceeds") ? Violation.RPC_TOO_LARGE : Violation.MALFORMED_RPC);
                router.penalise(peer);
                stream.reset();
                return;
            }
            if (rpc == null) {
                return;
            }
            try {
                router.onRpc(peer, rpc, this);
            } finally {
                rpc.release();
            }
        }
    }

    /** Called by the hand-over from any thread. */
    @Override
    public void pause() {
        paused = true;
        stream.pauseReading();
    }

    @Override
    public void resume() {
        stream.executor().execute(() -> {
            paused = false;
            process();
            if (!paused) {
                stream.resumeReading();
            }
        });
    }

    @Override
    public void onRemoteClosed(Stream s) {
        s.closeWrite();
    }

    @Override
    public void onClosed(Stream s, Throwable cause) {
        if (reader != null) {
            reader.close();
        }
    }
}
