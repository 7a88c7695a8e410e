package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Splits the TCP byte stream into frames: an unsigned varint length followed by that many bytes.
 *
 * <p>Each frame is emitted as a retained slice of the pooled input buffer <em>including</em> its length
 * prefix, so a relay can forward the exact received bytes without re-encoding. A length past the maximum
 * frame size is refused as soon as the prefix shows it, before any of the frame is buffered. After the
 * first violation the decoder discards all further input; the owner is expected to close the connection.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /** A varint longer than this cannot encode a 32-bit length. */
    static final int MAX_PREFIX_BYTES = 5;

    private final int maxFrameSize;
    private boolean failed;

    public FrameDecoder(int maxFrameSize) {
        if (maxFrameSize < 1) {
            throw new IllegalArgumentException("max frame size must be positive, was " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            ByteBuf frame = nextFrame(in, maxFrameSize);
            if (frame != null) {
                out.add(frame);
            }
        } catch (ProtocolViolation e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        decode(ctx, in, out);
        if (!failed && in.isReadable()) {
            int pending = in.readableBytes();
            failed = true;
            in.skipBytes(pending);
            throw new ProtocolViolation(Violation.TRUNCATED_FRAME, "the connection ended " + pending + " bytes into a frame");
        }
    }

    /**
     * Reads one whole frame (prefix included) as a retained slice, or returns null and consumes nothing
     * when {@code in} does not yet hold a whole frame.
     */
    static ByteBuf nextFrame(ByteBuf in, int maxFrameSize) {
        int start = in.readerIndex();
        int available = in.readableBytes();
        long length = 0;
        int prefix = 0;
        while (true) {
            if (prefix == available) {
                return null;
            }
            byte b = in.getByte(start + prefix);
            length |= (long) (b & 0x7F) << (7 * prefix);
            prefix++;
            if (length > maxFrameSize) {
                throw new ProtocolViolation(Violation.FRAME_TOO_LARGE,
                        "length prefix announces at least " + length + " bytes, the maximum frame is " + maxFrameSize);
            }
            if ((b & 0x80) == 0) {
                break;
            }
            if (prefix == MAX_PREFIX_BYTES) {
                throw new ProtocolViolation(Violation.MALFORMED_LENGTH_PREFIX, "length prefix is not a varint of at most 5 bytes");
            }
        }
        int total = prefix + (int) length;
        if (available < total) {
            return null;
        }
        return in.readRetainedSlice(total);
    }
}
