package io.wakurelay.loadgen;

import com.google.protobuf.UnsafeByteOperations;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.proto.WakuMessage;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A seeded workload: {@code warmup + count} messages whose payload sizes follow the mix. Message {@code i}'s
 * payload starts with {@code i} (4 bytes, big-endian) so a receiver can tell messages apart, followed by bytes
 * drawn from a generator seeded with the seed and {@code i}. The same seed and mix give the same sizes and
 * payloads in the same order.
 */
public record Workload(long seed, PayloadMix mix, int count, int warmup, String pubsubTopic, String contentTopic) {
    public static final String DEFAULT_CONTENT_TOPIC = "/waku/2/default-content/proto";
    /** The node's own default (its first relayed topic when run without flags). */
    public static final String DEFAULT_PUBSUB_TOPIC = NodeConfig.DEFAULTS.relay().pubsubTopics().get(0);

    public Workload {
        Objects.requireNonNull(mix, "mix");
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, was " + count);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warmup must not be negative, was " + warmup);
        }
        if (mix.maxBytes() < 4) {
            throw new IllegalArgumentException("payloads must be at least 4 bytes to carry their index");
        }
    }

    public int total() {
        return warmup + count;
    }

    /** Payload sizes of all messages, warmup first. */
    public int[] sizes() {
        return mix.sizes(seed, total());
    }

    /** Payload of message {@code index} in a new buffer. */
    public ByteBuffer payload(int index, int size) {
        ByteBuffer out = ByteBuffer.allocate(size);
        fill(out, index, size);
        out.flip();
        return out;
    }

    /** Writes the payload of message {@code index} at {@code out}'s position. */
    void fill(ByteBuffer out, int index, int size) {
        SplittableRandom random = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (index + 1)));
        if (size >= 4) {
            out.putInt(index);
        }
        int written = Math.min(4, size);
        while (written + 8 <= size) {
            out.putLong(random.nextLong());
            written += 8;
        }
        while (written < size) {
            out.put((byte) random.nextInt());
            written++;
        }
    }

    /** The payload's leading index, as a receiver reads it. */
    public static int indexOf(ByteBuffer payload) {
        return payload.getInt(payload.position());
    }

    public WakuMessage message(int index, ByteBuffer payload, long timestampNanos) {
        return WakuMessage.newBuilder()
                .setPayload(UnsafeByteOperations.unsafeWrap(payload.duplicate()))
                .setContentTopic(contentTopic)
                .setTimestamp(timestampNanos)
                .build();
    }
}
