package io.wakurelay.p2p.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.wakurelay.p2p.crypto.PeerId;

/**
 * One negotiated stream of a connection: a reliable, ordered, bidirectional byte pipe to the peer, carrying one
 * protocol. Bytes travel as pooled buffers that are handed over, never copied: {@link #write} takes ownership of
 * the buffer it is given, and {@link StreamHandler#onData} hands ownership of what it delivers.
 *
 * <p>Every callback of the stream's {@link StreamHandler} runs on {@link #executor()}, the connection's event loop.
 * Methods may be called from any thread; off the event loop they are carried out on it, in call order.
 *
 * <p>Flow control: a handler that cannot keep up calls {@link #pauseReading()}; the stream then queues what arrives
 * and stops granting the peer credit (yamux stops sending window updates, so the peer's writer stops after one
 * window; mplex, which has no credit, pauses the connection's reads past a bound and resets the stream past a
 * second one). {@link #isWritable()} turns false when more than the stream's write bound is queued toward the peer.
 */
public interface Stream {
    /** The negotiated protocol id. */
    String protocol();

    PeerId remotePeer();

    Connection connection();

    /** True when this node opened the stream. */
    boolean isOutbound();

    EventExecutor executor();

    ByteBufAllocator alloc();

    /** Queues {@code data} (ownership passes to the stream) and flushes it toward the peer. */
    Future<Void> write(ByteBuf data);

    /** True while the bytes queued toward the peer are under the stream's bound and the connection is writable. */
    boolean isWritable();

    /** Bytes written and not yet handed to the connection's socket buffer. */
    long queuedBytes();

    /** Stops delivering data; what arrives is queued and the peer gets no more credit. */
    void pauseReading();

    /** Delivers what was queued, then new data as it arrives. */
    void resumeReading();

    /** Half-close: this side sends no more data; the peer's data still arrives. */
    void closeWrite();

    /** Ends the stream both ways at once, telling the peer (an error, not a clean close). */
    void reset();

    /** True until the stream was reset, or both sides closed their write sides. */
    boolean isOpen();
}
