package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.WireFormatException;
import io.wakurelay.protocol.Violation;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Reads the RPCs a peer writes on the relay stream it opened to this node: length-prefixed, at most
 * {@code maxRpcSize} each, handed to the router one at a time as retained slices of the decrypted buffers. When
 * the local consumer falls behind, the router pauses this source: the RPCs already read wait here and the stream
 * stops granting the peer credit until it resumes.
 *
 * <p>What a peer can make this reader hold is bounded in size and in time: one RPC of at most {@code maxRpcSize}
 * (plus what one window of credit brings behind it), and only for {@code rpcReadTimeout}: an RPC that has been
 * incomplete for that long while this node was reading resets the stream and frees its bytes. Libp2p pings keep a
 * silent connection alive, so without the deadline a peer could hold the buffer of a started RPC for as long as it
 * liked. The deadline is checked four times per timeout rather than armed per RPC, so that the hot path pays no
 * timer: a stalled RPC is reset between one and one and a quarter timeouts after it began.
 */
final class RelayStreamReader implements StreamHandler, Source {
    private static final long NOT_PENDING = Long.MIN_VALUE;

    private final GossipRouter router;
    private final PeerState peer;
    private final RouterEvents events;
    private final int maxRpcSize;
    private final long timeoutNanos;
    private final Set<RelayStreamReader> open;
    private Stream stream;
    private LengthPrefixedReader reader;
    private ScheduledFuture<?> deadlineCheck;
    private volatile boolean paused;
    /** RPCs taken from the stream; a change between two checks means the pending bytes are a newer RPC. */
    private long completed;
    private long completedWhenSeenPending;
    private long pendingSeenSinceNanos = NOT_PENDING;

    /**
     * @param open the relay's open readers, for its buffered-bytes gauge; this reader is in it while its stream is
     */
    RelayStreamReader(GossipRouter router, PeerState peer, RouterEvents events, int maxRpcSize,
                      Duration rpcReadTimeout, Set<RelayStreamReader> open) {
        this.router = router;
        this.peer = peer;
        this.events = events;
        this.maxRpcSize = maxRpcSize;
        this.timeoutNanos = rpcReadTimeout.toNanos();
        this.open = open;
    }

    @Override
    public void onOpen(Stream s) {
        stream = s;
        reader = new LengthPrefixedReader(s.alloc(), maxRpcSize);
        open.add(this);
        long period = Math.max(1, timeoutNanos / 4);
        deadlineCheck = s.executor().scheduleAtFixedRate(this::checkDeadline, period, period, TimeUnit.NANOSECONDS);
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
                events.invalid(e.getMessage().contains("exceeds") ? Violation.RPC_TOO_LARGE : Violation.MALFORMED_RPC);
                router.penalise(peer);
                stream.reset();
                return;
            }
            if (rpc == null) {
                return;
            }
            completed++;
            try {
                router.onRpc(peer, rpc, this);
            } finally {
                rpc.release();
            }
        }
    }

    /**
     * Runs on the stream's event loop. Bytes buffered while reading is not paused are an incomplete RPC; the time it
     * has been pending is counted from the first check that saw it (at most a quarter timeout after it began), and
     * starts again after a pause, whose wait is this node's doing, not the peer's.
     */
    private void checkDeadline() {
        if (!stream.isOpen()) {
            return;
        }
        long now = System.nanoTime();
        if (paused || reader.buffered() == 0) {
            pendingSeenSinceNanos = NOT_PENDING;
        } else if (pendingSeenSinceNanos == NOT_PENDING || completed != completedWhenSeenPending) {
            pendingSeenSinceNanos = now;
            completedWhenSeenPending = completed;
        } else if (now - pendingSeenSinceNanos >= timeoutNanos) {
            events.inboundStreamReset("rpc_read_timeout");
            stream.reset();
        }
    }

    /** Bytes received and not yet handed to the router: an incomplete RPC, or RPCs waiting out a pause. */
    int buffered() {
        LengthPrefixedReader r = reader;
        return r == null ? 0 : r.buffered();
    }

    /**
     * The peer opened another relay stream, which takes this one's place: one inbound stream per peer, as
     * go-libp2p-pubsub and js-libp2p's gossipsub keep, so that a peer cannot multiply the RPC buffer by its streams.
     */
    void replaced() {
        if (stream != null && stream.isOpen()) {
            events.inboundStreamReset("replaced");
            stream.reset();
        }
    }

    /**
     * Called by the hand-over from any thread (the event loop, a validation thread): reading stops after the RPC being
     * handed over, and the stream stops granting credit (carried out on the event loop, in call order).
     */
    @Override
    public void pause() {
        paused = true;
        stream.pauseReading();
    }

    /**
     * Called by the hand-over from any thread, after the pause it ends. The flag is cleared at once, in the order the
     * hand-over decided, and the event loop then reads what waited and grants credit again, unless a later pause came
     * first: a pause and a resume that cross on the way to the event loop end as the hand-over last decided.
     */
    @Override
    public void resume() {
        paused = false;
        stream.executor().execute(() -> {
            if (paused) {
                return; // paused again since: that pause's pauseReading is on its way, after this
            }
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
        open.remove(this);
        if (peer.inbound == this) {
            peer.inbound = null;
        }
        if (deadlineCheck != null) {
            deadlineCheck.cancel(false);
        }
        if (reader != null) {
            reader.close();
        }
    }
}
