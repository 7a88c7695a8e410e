package io.wakurelay.services;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.p2p.wire.WireFormatException;

/**
 * Collects the one {@code uvarint(length) ‖ message} that a request, or a response, of a request-response stream
 * is. The length prefix is judged as soon as it is complete, so an oversized message is refused before its body is
 * buffered. Not thread-safe: used on the stream's event loop.
 */
final class OneMessageReader implements AutoCloseable {
    /** What the bytes so far amount to. */
    sealed interface Result {
    }

    /** More bytes are needed. */
    record NeedMore() implements Result {
    }

    /** The whole message (without its prefix), owned by the caller. Bytes after it are discarded. */
    record Complete(ByteBuf message) implements Result {
    }

    /** The prefix announces more than the limit. */
    record TooLarge(long length, int limit) implements Result {
    }

    /** The prefix is not a valid uvarint. */
    record Malformed(String reason) implements Result {
    }

    private static final Result NEED_MORE = new NeedMore();
    private static final int MAX_COMPONENTS = 64;

    private final ByteBufAllocator allocator;
    private final int maxLength;
    private CompositeByteBuf cumulation;
    private long length = -1;
    private boolean finished;

    OneMessageReader(ByteBufAllocator allocator, int maxLength) {
        this.allocator = allocator;
        this.maxLength = maxLength;
    }

    /** Takes ownership of {@code data}; after a result other than {@link NeedMore}, input is released unread. */
    Result add(ByteBuf data) {
        if (finished) {
            data.release();
            return NEED_MORE;
        }
        if (cumulation == null) {
            cumulation = allocator.compositeBuffer(MAX_COMPONENTS);
        }
        cumulation.addComponent(true, data);
        if (length < 0) {
            try {
                length = Uvarint.read(cumulation);
            } catch (WireFormatException e) {
                return finish(new Malformed("malformed length prefix: " + e.getMessage()));
            }
            if (length == Uvarint.INCOMPLETE) {
                length = -1;
                return NEED_MORE;
            }
            if (length > maxLength) {
                return finish(new TooLarge(length, maxLength));
            }
        }
        if (cumulation.readableBytes() < length) {
            return NEED_MORE;
        }
        ByteBuf message = cumulation.readRetainedSlice((int) length);
        return finish(new Complete(message));
    }

    /** Bytes received so far, prefix included (0 after a result). */
    int buffered() {
        return cumulation == null ? 0 : cumulation.writerIndex();
    }

    /** True when bytes of a request were received and it is not complete (its stream ended early). */
    boolean isPartial() {
        return !finished && cumulation != null && cumulation.writerIndex() > 0;
    }

    private Result finish(Result result) {
        finished = true;
        close();
        return result;
    }

    @Override
    public void close() {
        finished = true;
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }
}
