package io.wakurelay.relay;

import com.google.protobuf.ByteString;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A gossipsub message id: for Waku relay, the SHA-256 of the WakuMessage bytes (nwaku's {@code message_id.nim},
 * js-waku's relay), not the RFC 14 message hash. Ids from peers (IHAVE, IWANT, IDONTWANT) may have any length.
 */
final class MessageId {
    /** The length of every message id this node makes and accepts: a SHA-256. */
    static final int BYTES = 32;

    private final byte[] bytes;
    private final int hash;

    MessageId(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    byte[] bytes() {
        return bytes;
    }

    /** The first 8 bytes as a long (shorter ids: their bytes, big-endian): what the seen cache keeps. */
    long prefix() {
        long v = 0;
        for (int i = 0; i < Math.min(8, bytes.length); i++) {
            v = (v << 8) | (bytes[i] & 0xFF);
        }
        return v;
    }

    /** {@link #prefix()} of an id as it came in a control message, without copying it. */
    static long prefix(ByteString id) {
        long v = 0;
        for (int i = 0; i < Math.min(8, id.size()); i++) {
            v = (v << 8) | (id.byteAt(i) & 0xFF);
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MessageId other && hash == other.hash && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 8)) + "…";
    }
}
