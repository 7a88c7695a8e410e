package io.wakurelay.p2p.multiaddr;

import java.io.ByteArrayOutputStream;

/**
 * Unsigned varints as multiformats/unsigned-varint defines them: 7 bits a byte, least significant first, at most
 * 9 bytes (63 bits), minimally encoded.
 */
final class Uvarint {

    static final int MAX_BYTES = 9;

    private Uvarint() {
    }

    /** The varint at {@code position}; the position after it goes into {@code next[0]}. */
    static long read(byte[] bytes, int position, int[] next) {
        long value = 0;
        for (int i = 0; i < MAX_BYTES; i++) {
            if (position + i >= bytes.length) {
                throw new MultiaddrFormatException("truncated varint at byte " + position);
            }
            int b = bytes[position + i] & 0xff;
            value |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                if (b == 0 && i > 0) {
                    throw new MultiaddrFormatException("varint at byte " + position + " is not minimally encoded");
                }
                next[0] = position + i + 1;
                return value;
            }
        }
        throw new MultiaddrFormatException("varint at byte " + position + " is longer than 9 bytes");
    }

    static void write(long value, ByteArrayOutputStream out) {
        long rest = value;
        while ((rest & ~0x7fL) != 0) {
            out.write((int) ((rest & 0x7f) | 0x80));
            rest >>>= 7;
        }
        out.write((int) rest);
    }
}
