package io.wakurelay.discovery.enr;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Recursive Length Prefix encoding (the Ethereum yellow paper, appendix B), only as far as records need it: byte
 * strings, unsigned integers as minimal big-endian byte strings, and lists of already encoded items.
 */
public final class Rlp {

    private Rlp() {
    }

    public static byte[] bytes(byte[] value) {
        if (value.length == 1 && (value[0] & 0xff) < 0x80) {
            return value.clone(); // a single byte below 0x80 is its own encoding
        }
        return withPrefix(0x80, value);
    }

    public static byte[] string(String ascii) {
        return bytes(ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    /** An unsigned integer: big-endian without leading zeros (zero is the empty string). */
    public static byte[] unsigned(long value) {
        return bytes(minimalBigEndian(value));
    }

    public static byte[] list(List<byte[]> encodedItems) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        encodedItems.forEach(payload::writeBytes);
        return withPrefix(0xc0, payload.toByteArray());
    }

    public static byte[] minimalBigEndian(long value) {
        int length = (Long.SIZE - Long.numberOfLeadingZeros(value) + 7) / 8;
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[length - 1 - i] = (byte) (value >>> (8 * i));
        }
        return out;
    }

    private static byte[] withPrefix(int base, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(payload.length + 9);
        if (payload.length < 56) {
            out.write(base + payload.length);
        } else {
            byte[] length = minimalBigEndian(payload.length);
            out.write(base + 55 + length.length);
            out.writeBytes(length);
        }
        out.writeBytes(payload);
        return out.toByteArray();
    }
}
