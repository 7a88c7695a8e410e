package io.wakurelay.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Just enough protobuf wire format, written from the spec, for the harness test to build the Waku messages and
 * responses it feeds the JavaScript peers, and to read back a WakuMessage: the testkit module depends on no codec.
 */
final class Protobuf {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Protobuf message() {
        return new Protobuf();
    }

    Protobuf bytes(int field, byte[] value) {
        key(field, 2);
        varint(value.length);
        out.writeBytes(value);
        return this;
    }

    Protobuf string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    Protobuf message(int field, Protobuf value) {
        return bytes(field, value.toByteArray());
    }

    Protobuf uint(int field, long value) {
        key(field, 0);
        varint(value);
        return this;
    }

    Protobuf sint(int field, long value) {
        return uint(field, (value << 1) ^ (value >> 63));
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    String base64() {
        return Base64.getEncoder().encodeToString(toByteArray());
    }

    private void key(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    /** A WakuMessage {payload=1, content_topic=2, timestamp=10 (sint64)}. */
    static Protobuf wakuMessage(byte[] payload, String contentTopic, long timestampNs) {
        return message().bytes(1, payload).string(2, contentTopic).sint(10, timestampNs);
    }

    /** The RFC 14 deterministic message hash of a message without meta. */
    static String messageHash(String pubsubTopic, byte[] payload, String contentTopic, long timestampNs) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(pubsubTopic.getBytes(StandardCharsets.UTF_8));
            sha256.update(payload);
            sha256.update(contentTopic.getBytes(StandardCharsets.UTF_8));
            sha256.update(ByteBuffer.allocate(8).putLong(timestampNs).array());
            return "0x" + java.util.HexFormat.of().formatHex(sha256.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The length-delimited and varint fields of a message, by field number (the last occurrence wins). */
    static Map<Integer, Object> fields(byte[] bytes) {
        Map<Integer, Object> fields = new HashMap<>();
        ByteBuffer in = ByteBuffer.wrap(bytes);
        while (in.hasRemaining()) {
            long key = readVarint(in);
            int field = (int) (key >>> 3);
            switch ((int) (key & 7)) {
                case 0 -> fields.put(field, readVarint(in));
                case 1 -> in.position(in.position() + 8);
                case 2 -> {
                    byte[] value = new byte[(int) readVarint(in)];
                    in.get(value);
                    fields.put(field, value);
                }
                case 5 -> in.position(in.position() + 4);
                default -> throw new IllegalArgumentException("wire type " + (key & 7));
            }
        }
        return fields;
    }

    static long zigzagDecode(long value) {
        return (value >>> 1) ^ -(value & 1);
    }

    private static long readVarint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint too long");
    }
}
