package io.wakurelay.archive.postgres;

import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.MessageHash;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * nwaku's text encoding of bytes in its tables: lower-case hex without {@code 0x} (its {@code toHex}); read back in
 * either case (its {@code parseHexStr} takes both). Hashes are compared as text in SQL, so they are always written in
 * lower case.
 */
final class Hex {
    private static final HexFormat LOWER = HexFormat.of();
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private Hex() {
    }

    static String of(MessageHash hash) {
        return LOWER.formatHex(hash.toByteArray());
    }

    /**
     * The readable bytes of {@code bytes}, read in place (no copy of the buffer). The digits go into a byte array, which
     * a Latin-1 string copies as it is: half the allocation of a char array for a payload's tens of kilobytes.
     */
    static String of(ByteBuf bytes) {
        int from = bytes.readerIndex();
        int length = bytes.readableBytes();
        byte[] out = new byte[2 * length];
        for (int i = 0; i < length; i++) {
            int b = bytes.getUnsignedByte(from + i);
            out[2 * i] = DIGITS[b >>> 4];
            out[2 * i + 1] = DIGITS[b & 0xf];
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** @throws IllegalArgumentException when {@code text} is not hex */
    static byte[] parse(String text) {
        return LOWER.parseHex(text);
    }

    static MessageHash hash(String text) {
        return MessageHash.of(parse(text));
    }
}
