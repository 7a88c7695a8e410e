package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.Stream;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node writes to one peer: RPCs on the relay stream this node opened, counted from the write until the
 * connection took them (the stream's completion), and bounded. Messages past {@code peerQueueMessages} or
 * {@code peerQueueBytes} are dropped and counted; gossip (IWANT answers) may use only half, so it goes first when a
 * peer falls behind. Control RPCs (subscriptions, GRAFT, PRUNE, IHAVE, IWANT) are small and always sent. A peer
 * that makes {@code maxDropsBeforeDisconnect} mesh messages drop in a row is reported stuck.
 */
final class PeerSender {
    /** RPCs written before the stream is open (the first subscriptions): a few at most. */
    private static final int MAX_EARLY_CONTROL = 64;

    enum Kind {
        CONTROL, MESSAGE, GOSSIP
    }

    private final RelayConfig config;
    private final RelayMetrics metrics;
    private final Runnable onStuck;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger messages = new AtomicInteger();
    private final AtomicInteger consecutiveDrops = new AtomicInteger();
    private final AtomicLong drops = new AtomicLong();
    private final ArrayDeque<ByteBuf> early = new ArrayDeque<>();
    private volatile Stream stream;
    private boolean closed;

    PeerSender(RelayConfig config, RelayMetrics metrics, Runnable onStuck) {
        this.config = config;
        this.metrics = metrics;
        this.onStuck = onStuck;
    }

    /** Sends one length-prefixed RPC (ownership passes); false when it was dropped. */
    boolean send(ByteBuf rpc, Kind kind) {
        Stream s = stream;
        if (s == null) {
            return sendEarly(rpc, kind);
        }
        int size = rpc.readableBytes();
        if (kind != Kind.CONTROL) {
            long maxBytes = kind == Kind.GOSSIP ? config.peerQueueBytes() / 2 : config.peerQueueBytes();
            int maxMessages = kind == Kind.GOSSIP ? config.peerQueueMessages() / 2 : config.peerQueueMessages();
            if (bytes.get() + size > maxBytes || messages.get() + 1 > maxMessages) {
                rpc.release();
                drop(kind);
                return false;
            }
            if (kind == Kind.MESSAGE) {
                consecutiveDrops.set(0);
            }
        }
        bytes.addAndGet(size);
        messages.incrementAndGet();
        s.write(rpc).addListener(f -> {
            bytes.addAndGet(-size);
            messages.decrementAndGet();
        });
        return true;
    }

    private synchronized boolean sendEarly(ByteBuf rpc, Kind kind) {
        Stream s = stream;
        if (s != null) {
            return send(rpc, kind);
        }
        if (closed || kind != Kind.CONTROL || early.size() >= MAX_EARLY_CONTROL) {
            rpc.release();
            if (kind != Kind.CONTROL) {
                drop(kind);
            }
            return false;
        }
        early.add(rpc);
        return true;
    }

    private void drop(Kind kind) {
        drops.incrementAndGet();
        metrics.peerDrop(kind);
        if (kind == Kind.MESSAGE && consecutiveDrops.incrementAndGet() == config.maxDropsBeforeDisconnect()) {
            onStuck.run();
        }
    }

    /** The relay stream to the peer is open: what waited goes first. */
    synchronized void opened(Stream s) {
        ByteBuf rpc;
        while ((rpc = early.poll()) != null) {
            s.write(rpc);
        }
        stream = s;
    }

    /** The stream or the connection ended; later sends are dropped until a new stream opens. */
    synchronized void closed() {
        stream = null;
        ByteBuf rpc;
        while ((rpc = early.poll()) != null) {
            rpc.release();
        }
    }

    /** The peer is gone for good. */
    synchronized void shutdown() {
        closed = true;
        closed();
    }

    boolean isOpen() {
        return stream != null;
    }

    long queuedBytes() {
        return bytes.get();
    }

    int queuedMessages() {
        return messages.get();
    }

    long drops() {
        return drops.get();
    }
}
