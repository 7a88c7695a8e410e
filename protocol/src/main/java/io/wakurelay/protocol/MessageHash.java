package io.wakurelay.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The 32-byte deterministic message hash, shown as {@code 0x} followed by 64 lower-case hex digits.
 * Ordered as unsigned bytes, which is the tie-break order of the archive's time indexes.
 */
public final class MessageHash implements Comparable<MessageHash> {
    public static final int LENGTH = 32;
    private static final HexFormat HEX = HexFormat.of();

    private final byte[] bytes;
    private final int hashCode;

    private MessageHash(byte[] bytes) {
        this.bytes = bytes;
        this.hashCode = Arrays.hashCode(bytes);
    }

    /** Takes ownership of {@code bytes}; callers must not change them afterwards. */
    static MessageHash wrap(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a message hash is 32 bytes, got " + bytes.length);
        }
        return new MessageHash(bytes);
    }

    public static MessageHash of(byte[] bytes) {
        return wrap(bytes.clone());
    }

    public static MessageHash read(ByteBuffer buffer) {
        byte[] b = new byte[LENGTH];
        buffer.get(b);
        return new MessageHash(b);
    }

    /**
     * Parses {@code 0x} + 64 hex digits (the prefix is optional, either case is accepted).
     *
     * @throws IllegalArgumentException saying what is wrong with the text
     */
    public static MessageHash parse(String text) {
        String hex = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (hex.length() != 2 * LENGTH) {
            throw new IllegalArgumentException("a message hash is 0x followed by 64 hex digits, got '" + abbreviate(text) + "'");
        }
        try {
            return new MessageHash(HEX.parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a message hash is 0x followed by 64 hex digits, got '" + abbreviate(text) + "'", e);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }

    public byte[] toByteArray() {
        return bytes.clone();
    }

    /** Writes the 32 bytes into {@code target} at its position. */
    public void writeTo(ByteBuffer target) {
        target.put(bytes);
    }

    public String toHex() {
        return "0x" + HEX.formatHex(bytes);
    }

    @Override
    public int compareTo(MessageHash other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MessageHash other && hashCode == other.hashCode && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hashCode;
    }

    @Override
    public String toString() {
        return toHex();
    }
}
