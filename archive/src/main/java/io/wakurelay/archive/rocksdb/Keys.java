package io.wakurelay.archive.rocksdb;

import io.wakurelay.protocol.MessageHash;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Key and value layouts of the column families (docs/archive.md, "Schema").
 *
 * <p>Every index key ends with a 40-byte <em>tail</em>: the timestamp (8 bytes, big-endian with the sign bit
 * flipped, so that unsigned byte order is signed numeric order) followed by the 32-byte hash. Byte order of tails
 * is therefore (timestamp, hash) order, the order of Store v3 results, and a range scan under one prefix
 * returns a topic's messages already sorted. Variable-length topics come first, each ended by NUL: topics never
 * contain NUL (the protocol refuses control characters), so {@code "a\0"} can never be a prefix of another
 * topic's keys.
 */
final class Keys {
    static final int TIMESTAMP_BYTES = 8;
    static final int TAIL_BYTES = TIMESTAMP_BYTES + MessageHash.LENGTH;
    static final byte[] EMPTY = new byte[0];
    private static final byte SEPARATOR = 0;

    private Keys() {
    }

    /** The order-preserving encoding of a signed timestamp, as a long to write big-endian. */
    static long orderedTimestamp(long timestamp) {
        return timestamp ^ Long.MIN_VALUE;
    }

    /** The order-preserving encoding of a signed timestamp. */
    static void putTimestamp(byte[] target, int offset, long timestamp) {
        long v = orderedTimestamp(timestamp);
        for (int i = 7; i >= 0; i--) {
            target[offset + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long timestamp(byte[] source, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (source[offset + i] & 0xFF);
        }
        return v ^ Long.MIN_VALUE;
    }

    /** (timestamp, hash) as a 40-byte tail. */
    static byte[] tail(long timestamp, byte[] hash) {
        byte[] tail = new byte[TAIL_BYTES];
        putTimestamp(tail, 0, timestamp);
        System.arraycopy(hash, 0, tail, TIMESTAMP_BYTES, MessageHash.LENGTH);
        return tail;
    }

    /** The smallest tail at {@code timestamp} (all hash bytes 0x00). */
    static byte[] firstTailAt(long timestamp) {
        byte[] tail = new byte[TAIL_BYTES];
        putTimestamp(tail, 0, timestamp);
        return tail;
    }

    /** The largest tail at {@code timestamp} (all hash bytes 0xFF). */
    static byte[] lastTailAt(long timestamp) {
        byte[] tail = firstTailAt(timestamp);
        Arrays.fill(tail, TIMESTAMP_BYTES, TAIL_BYTES, (byte) 0xFF);
        return tail;
    }

    /** {@code pubsubTopic NUL}: the prefix of a pubsub topic's keys in by_pubsub_topic. */
    static byte[] pubsubPrefix(String pubsubTopic) {
        byte[] topic = utf8(pubsubTopic);
        byte[] prefix = Arrays.copyOf(topic, topic.length + 1);
        prefix[topic.length] = SEPARATOR;
        return prefix;
    }

    /** {@code pubsubTopic NUL contentTopic NUL}: the prefix of a content topic's keys in by_content_topic. */
    static byte[] contentPrefix(String pubsubTopic, String contentTopic) {
        return contentPrefix(utf8(pubsubTopic), utf8(contentTopic));
    }

    static byte[] contentPrefix(byte[] pubsubTopic, byte[] contentTopic) {
        byte[] prefix = new byte[pubsubTopic.length + 1 + contentTopic.length + 1];
        System.arraycopy(pubsubTopic, 0, prefix, 0, pubsubTopic.length);
        System.arraycopy(contentTopic, 0, prefix, pubsubTopic.length + 1, contentTopic.length);
        return prefix;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The smallest key greater than {@code key} in a column family whose keys all have the same length. */
    static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /** The tail of an index key (its last 40 bytes). */
    static byte[] tailOf(byte[] key) {
        return Arrays.copyOfRange(key, key.length - TAIL_BYTES, key.length);
    }

    static long timestampOfTail(byte[] tail) {
        return timestamp(tail, 0);
    }

    static MessageHash hashOfTail(byte[] tail) {
        return MessageHash.read(ByteBuffer.wrap(tail, TIMESTAMP_BYTES, MessageHash.LENGTH));
    }

    static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    // ---- values ----

    /** by_time value: message size (4 bytes) ‖ pubsub topic ‖ NUL ‖ content topic; what retention needs to delete the other entries. */
    static byte[] timeValue(int messageSize, byte[] pubsubTopic, byte[] contentTopic) {
        byte[] value = new byte[4 + pubsubTopic.length + 1 + contentTopic.length];
        ByteBuffer.wrap(value).putInt(messageSize);
        System.arraycopy(pubsubTopic, 0, value, 4, pubsubTopic.length);
        System.arraycopy(contentTopic, 0, value, 4 + pubsubTopic.length + 1, contentTopic.length);
        return value;
    }

    static int sizeOfTimeValue(byte[] value) {
        return ByteBuffer.wrap(value).getInt(0);
    }

    static byte[] pubsubOfTimeValue(byte[] value) {
        return Arrays.copyOfRange(value, 4, separatorIndex(value, 4));
    }

    static byte[] contentOfTimeValue(byte[] value) {
        return Arrays.copyOfRange(value, separatorIndex(value, 4) + 1, value.length);
    }

    /** message_info value: timestamp (8 bytes, key encoding) ‖ pubsub topic. */
    static byte[] infoValue(long timestamp, byte[] pubsubTopic) {
        byte[] value = new byte[TIMESTAMP_BYTES + pubsubTopic.length];
        putTimestamp(value, 0, timestamp);
        System.arraycopy(pubsubTopic, 0, value, TIMESTAMP_BYTES, pubsubTopic.length);
        return value;
    }

    static long timestampOfInfo(byte[] value) {
        return timestamp(value, 0);
    }

    static String pubsubOfInfo(byte[] value) {
        return new String(value, TIMESTAMP_BYTES, value.length - TIMESTAMP_BYTES, StandardCharsets.UTF_8);
    }

    /** RocksDB's UInt64AddOperator reads 8-byte little-endian unsigned integers; a negative delta subtracts. */
    static byte[] uint64(long value) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (value >>> (8 * i));
        }
        return b;
    }

    static long readUint64(byte[] b) {
        if (b == null) {
            return 0;
        }
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private static int separatorIndex(byte[] value, int from) {
        for (int i = from; i < value.length; i++) {
            if (value[i] == SEPARATOR) {
                return i;
            }
        }
        throw new IllegalStateException("corrupt by_time value: no topic separator");
    }
}
