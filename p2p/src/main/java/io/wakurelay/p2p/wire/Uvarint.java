package io.wakurelay.p2p.wire;

import io.netty.buffer.ByteBuf;

import java.io.ByteArrayOutputStream;

/**
 * Unsigned LEB128 varints as multiformats/unsigned-varint defines them: at most 9 bytes (63 bits), minimal
 * encoding required. Used by multistream-select, mplex, every length-prefixed protocol message, and (on byte
 * arrays) multiaddrs. The one implementation of the project: protobuf's own varints (up to 10 bytes, not
 * necessarily minimal) are read by protobuf and by the protocol module's {@code WireReader}.
 */
public final class Uvarint {
    /** The spec's limit: 9 bytes carry 63 bits. */
    public static final int MAX_BYTES = 9;
    /** Returned by {@link #read} when the buffer ends before the varint does. */
    public static final long INCOMPLETE = -1;

    private Uvarint() {
    }

    /**
     * Reads a varint at the reader index and advances past it.
     *
     * @return the value, or {@link #INCOMPLETE} (reader index unchanged) when more bytes are needed
     * @throws WireFormatException when it is longer than {@link #MAX_BYTES} or not minimally encoded
     */
    public static long read(ByteBuf in) {
        int index = in.readerIndex();
        int end = in.writerIndex();
        long value = 0;
        for (int i = 0; i < MAX_BYTES; i++) {
            if (index + i >= end) {
                return INCOMPLETE;
            }
            byte b = in.getByte(index + i);
            value |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (b == 0 && i > 0) {
                    throw new WireFormatException("varint is not minimally encoded");
                }
                in.readerIndex(index + i + 1);
                return value;
            }
        }
        throw new WireFormatException("varint longer than " + MAX_BYTES + " bytes");
    }

    /**
     * Reads a varint that must fit in an int and be at most {@code max} (lengths, flags and ids).
     *
     * @return the value, or -1 when more bytes are needed
     */
    public static int readInt(ByteBuf in, int max, String what) {
        int start = in.readerIndex();
        long value = read(in);
        if (value == INCOMPLETE) {
            return -1;
        }
        if (value > max) {
            in.readerIndex(start);
            throw new WireFormatException(what + " of " + value + " exceeds the limit of " + max);
        }
        return (int) value;
    }

    /**
     * Reads a varint from {@code bytes} at {@code offset}; the offset just after it goes into {@code next[0]}.
     *
     * @return the value, or {@link #INCOMPLETE} ({@code next} unchanged) when the bytes end before the varint does
     * @throws WireFormatException when it is longer than {@link #MAX_BYTES} or not minimally encoded
     */
    public static long read(byte[] bytes, int offset, int[] next) {
        long value = 0;
        for (int i = 0; i < MAX_BYTES; i++) {
            if (offset + i >= bytes.length) {
                return INCOMPLETE;
            }
            byte b = bytes[offset + i];
            value |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (b == 0 && i > 0) {
                    throw new WireFormatException("varint is not minimally encoded");
                }
                next[0] = offset + i + 1;
                return value;
            }
        }
        throw new WireFormatException("varint longer than " + MAX_BYTES + " bytes");
    }

    public static void write(ByteBuf out, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("varints are unsigned, got " + value);
        }
        while ((value & ~0x7FL) != 0) {
            out.writeByte((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.writeByte((int) value);
    }

    public static void write(ByteArrayOutputStream out, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("varints are unsigned, got " + value);
        }
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    public static int size(long value) {
        int size = 1;
        while ((value & ~0x7FL) != 0) {
            size++;
            value >>>= 7;
        }
        return size;
    }
}
