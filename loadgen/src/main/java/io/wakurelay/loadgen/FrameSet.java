package io.wakurelay.loadgen;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.node.WakuNode;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A workload encoded into wire frames before the clock starts, in an allocator of its own, so the node's
 * pooled memory figures show only what the node uses. Knows each frame's hash.
 */
final class FrameSet implements AutoCloseable {
    private static final PooledByteBufAllocator GENERATOR = new PooledByteBufAllocator(true);

    private final ByteBuf[] frames;
    private final MessageHash[] hashes;
    private final int[] sizes;
    private final Map<MessageHash, Integer> indexByHash = new HashMap<>();

    /** {@code count} messages of exactly {@code size} payload bytes (at least 4, to carry the index). */
    static FrameSet fixedSize(String pubsubTopic, String contentTopic, int size, int count, int warmup) {
        return new FrameSet(new Workload(42, io.wakurelay.protocol.PayloadMix.parse(Math.max(4, size) + ":100"), count, warmup,
                pubsubTopic, contentTopic));
    }

    FrameSet(Workload workload) {
        int total = workload.total();
        frames = new ByteBuf[total];
        hashes = new MessageHash[total];
        sizes = workload.sizes();
        ProtocolLimits limits = ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO).withMaxMessageSize(
                Math.max(ProtocolLimits.DEFAULT_MAX_MESSAGE_SIZE, workload.mix().maxBytes() + 1024));
        EnvelopeEncoder encoder = new EnvelopeEncoder(new MessageValidator(limits, WakuNode::nowNanos), new PathCounters());
        for (int i = 0; i < total; i++) {
            ByteBuffer payload = workload.payload(i, sizes[i]);
            Envelope e = encoder.encode(workload.pubsubTopic(), workload.message(i, payload, WakuNode.nowNanos()), GENERATOR);
            frames[i] = e.retainedFrame();
            hashes[i] = e.hash();
            indexByHash.put(e.hash(), i);
            e.release();
        }
    }

    /** A new reference to frame {@code i}, for a consumer that takes ownership. */
    ByteBuf frame(int i) {
        return frames[i].retainedDuplicate();
    }

    MessageHash hash(int i) {
        return hashes[i];
    }

    int payloadSize(int i) {
        return sizes[i];
    }

    /** -1 when the hash is not one of this set's. */
    int indexOf(MessageHash hash) {
        return indexByHash.getOrDefault(hash, -1);
    }

    long payloadBytes(int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += sizes[i];
        }
        return sum;
    }

    @Override
    public void close() {
        for (ByteBuf f : frames) {
            if (f != null && f.refCnt() > 0) {
                f.release();
            }
        }
    }
}
