package io.wakurelay.p2p.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Splits a stream's bytes into {@code uvarint(length) ‖ message} messages without copying them: received buffers
 * are kept as components of one composite buffer and each message is handed out as a retained slice, of the one
 * component that holds it when it fits in one, of the composite when it spans several (a 150 kB RPC arrives in
 * three Noise frames). Not thread-safe: used on the stream's event loop.
 */
public final class LengthPrefixedReader implements AutoCloseable {
    /** Past this many components the composite merges them (a copy); only a peer that sends tiny fragments gets there. */
    private static final int MAX_COMPONENTS = 256;

    private final ByteBufAllocator allocator;
    private final int maxLength;
    private CompositeByteBuf cumulation;
    private boolean closed;

    /** @param maxLength the largest message accepted; a longer length prefix is a {@link WireFormatException} */
    public LengthPrefixedReader(ByteBufAllocator allocator, int maxLength) {
        this.allocator = allocator;
        this.maxLength = maxLength;
    }

    /** Takes ownership of {@code data}. */
    public void add(ByteBuf data) {
        if (closed) {
            data.release();
            return;
        }
        if (!data.isReadable()) {
            data.release();
            return;
        }
        if (cumulation == null) {
            cumulation = allocator.compositeDirectBuffer(MAX_COMPONENTS);
        }
        cumulation.addComponent(true, data);
    }

    /**
     * The next complete message (without its prefix), owned by the caller, or null when more bytes are needed.
     *
     * @throws WireFormatException when the length prefix is malformed or above the limit; the reader is then
     *                             closed and its bytes released
     */
    public ByteBuf next() {
        if (cumulation == null || !cumulation.isReadable()) {
            return null;
        }
        int start = cumulation.readerIndex();
        int length;
        try {
            length = Uvarint.readInt(cumulation, maxLength, "message length");
        } catch (WireFormatException e) {
            close();
            throw e;
        }
        if (length < 0) {
            return null;
        }
        if (cumulation.readableBytes() < length) {
            cumulation.readerIndex(start);
            return null;
        }
        ByteBuf message = retainedSlice(cumulation, cumulation.readerIndex(), length);
        cumulation.skipBytes(length);
        cumulation.discardReadComponents();
        return message;
    }

    /** Bytes received and not yet handed out. May be read from another thread (for a gauge): then an estimate. */
    public int buffered() {
        CompositeByteBuf c = cumulation;
        return c == null ? 0 : c.readableBytes();
    }

    /** Releases what is buffered; later input is released as it comes. Idempotent. */
    @Override
    public void close() {
        closed = true;
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }

    /**
     * {@code [index, index + length)} as a buffer of its own: a slice of the one component holding it, or a new
     * composite of slices of the components it spans. Never a slice of the cumulation itself, whose indexes move when
     * read components are discarded.
     */
    static ByteBuf retainedSlice(CompositeByteBuf composite, int index, int length) {
        if (length == 0) {
            return composite.alloc().buffer(0);
        }
        int c = composite.toComponentIndex(index);
        int offset = composite.toByteIndex(c);
        ByteBuf component = composite.internalComponent(c);
        if (index + length <= offset + component.readableBytes()) {
            return component.retainedSlice(component.readerIndex() + index - offset, length);
        }
        CompositeByteBuf parts = composite.alloc().compositeDirectBuffer(MAX_COMPONENTS);
        int at = index;
        int end = index + length;
        while (at < end) {
            component = composite.internalComponent(c);
            offset = composite.toByteIndex(c);
            int from = at - offset;
            int n = Math.min(end - at, component.readableBytes() - from);
            parts.addComponent(true, component.retainedSlice(component.readerIndex() + from, n));
            at += n;
            c++;
        }
        return parts;
    }
}
