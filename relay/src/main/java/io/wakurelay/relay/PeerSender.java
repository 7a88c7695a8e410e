package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Stream;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What this node writes to one peer: RPCs on the relay stream this node opened, counted from the write until the
 * connection took them (the stream's completion), and bounded. Messages past {@code peerQueueMessages} or
 * {@code peerQueueBytes} are dropped and counted; gossip (IWANT answers) may use only half, so it goes first when a
 * peer falls behind. Control RPCs (subscriptions, GRAFT, PRUNE, IHAVE, IWANT) may use the whole queue and a small
 * allowance beyond it, so that they still pass a queue full of messages; past that they are dropped too, since a
 * peer that does not read could otherwise make this node queue its answers without end. A peer that makes
 * {@code maxDropsBeforeDisconnect} mesh messages or control RPCs drop in a row, with nothing taken meanwhile within
 * the queue's bounds, is reported stuck.
 */
final class PeerSender {
    /** RPCs written before the stream is open (the first subscriptions): a few at most. */
    private static final int MAX_EARLY_CONTROL = 64;
    /** Control RPCs beyond {@code peerQueueMessages}. */
    static final int CONTROL_ALLOWANCE_MESSAGES = 64;
    /** Control bytes beyond {@code peerQueueBytes}: two of the largest RPCs. */
    static final long CONTROL_ALLOWANCE_BYTES = 2L * RelayConfig.MAX_OUTBOUND_RPC_BYTES;

    enum Kind {
        CONTROL, MESSAGE, GOSSIP
    }

    private final RelayConfig config;
    private final RouterEvents events;
    private final Runnable onStuck;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger messages = new AtomicInteger();
    private final AtomicInteger consecutiveDrops = new AtomicInteger();
    private final AtomicLong drops = new AtomicLong();
    private final ArrayDeque<ByteBuf> early = new ArrayDeque<>();
    private volatile Stream stream;
    private boolean closed;

    PeerSender(RelayConfig config, RouterEvents events, Runnable onStuck) {
        this.config = config;
        this.events = events;
        this.onStuck = onStuck;
    }

    /** Sends one length-prefixed RPC (ownership passes); false when it was dropped. */
    boolean send(ByteBuf rpc, Kind kind) {
        Stream s = stream;
        if (s == null) {
            return sendEarly(rpc, kind);
        }
        int size = rpc.readableBytes();
        long queuedBytes = bytes.get();
        int queued = messages.get();
        boolean fits = queuedBytes + size <= maxBytes(kind) && queued + 1 <= maxMessages(kind);
        // an empty queue takes a control RPC of any size: one larger than the allowance would never go otherwise
        if (!fits && !(kind == Kind.CONTROL && queued == 0)) {
            rpc.release();
            drop(kind);
            return false;
        }
        if (kind != Kind.GOSSIP && queuedBytes + size <= config.peerQueueBytes()
                && queued + 1 <= config.peerQueueMessages()) {
            consecutiveDrops.set(0); // the peer takes what it is sent: not stuck
        }
        bytes.addAndGet(size);
        messages.incrementAndGet();
        s.write(rpc).addListener(f -> {
            bytes.addAndGet(-size);
            messages.decrementAndGet();
        });
        return true;
    }

    private long maxBytes(Kind kind) {
        return switch (kind) {
            case GOSSIP -> config.peerQueueBytes() / 2;
            case MESSAGE -> config.peerQueueBytes();
            case CONTROL -> config.peerQueueBytes() + CONTROL_ALLOWANCE_BYTES;
        };
    }

    private int maxMessages(Kind kind) {
        return switch (kind) {
            case GOSSIP -> config.peerQueueMessages() / 2;
            case MESSAGE -> config.peerQueueMessages();
            case CONTROL -> config.peerQueueMessages() + CONTROL_ALLOWANCE_MESSAGES;
        };
    }

    private synchronized boolean sendEarly(ByteBuf rpc, Kind kind) {
        Stream s = stream;
        if (s != null) {
            return send(rpc, kind);
        }
        if (closed || kind != Kind.CONTROL || early.size() >= MAX_EARLY_CONTROL) {
            rpc.release();
            if (!(closed && kind == Kind.CONTROL)) {
                drop(kind);
            }
            return false;
        }
        early.add(rpc);
        return true;
    }

    private void drop(Kind kind) {
        drops.incrementAndGet();
        events.peerDrop(kind);
        if (kind != Kind.GOSSIP && consecutiveDrops.incrementAndGet() == config.maxDropsBeforeDisconnect()) {
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

    /** Its queue holds as much as its bounds allow: only control still goes to it (gossip would only add to it). */
    boolean isFull() {
        return bytes.get() >= config.peerQueueBytes() || messages.get() >= config.peerQueueMessages();
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
