package io.wakurelay.p2p.connection;

import io.netty.buffer.ByteBuf;

/**
 * What a protocol does with one stream. Every call runs on the stream's event loop, one at a time; a handler must
 * not block in them.
 */
public interface StreamHandler {
    /** The stream is negotiated: data may be written. Called before any {@link #onData}. */
    default void onOpen(Stream stream) {
    }

    /** Bytes from the peer; the handler owns {@code data} and must release it. */
    void onData(Stream stream, ByteBuf data);

    /** The peer closed its write side: no more data will arrive. The stream may still write. */
    default void onRemoteClosed(Stream stream) {
    }

    /** The stream writes have crossed the stream's bound one way or the other (see {@link Stream#isWritable()}). */
    default void onWritabilityChanged(Stream stream) {
    }

    /**
     * The stream is over: both sides closed ({@code cause} null), or it was reset by either side or ended with its
     * connection ({@code cause} says why). The last call; queued data not delivered has been released.
     */
    default void onClosed(Stream stream, Throwable cause) {
    }
}
