package io.wakurelay.p2p.wire;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.io.UncheckedIOException;

/** {@code uvarint(length) ‖ message} frames, serialized straight into one pooled buffer. */
public final class Frames {
    private Frames() {
    }

    public static ByteBuf lengthPrefixed(ByteBufAllocator alloc, MessageLite message) {
        int size = message.getSerializedSize();
        ByteBuf out = alloc.buffer(Uvarint.size(size) + size);
        try {
            Uvarint.write(out, size);
            int start = out.writerIndex();
            CodedOutputStream coded = CodedOutputStream.newInstance(out.nioBuffer(start, size));
            message.writeTo(coded);
            coded.flush();
            out.writerIndex(start + size);
            return out;
        } catch (IOException | RuntimeException e) {
            out.release();
            if (e instanceof IOException io) {
                throw new UncheckedIOException("serializing into a buffer of the computed size failed", io);
            }
            throw (RuntimeException) e;
        }
    }
}
