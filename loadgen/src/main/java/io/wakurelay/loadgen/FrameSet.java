package io.wakurelay.loadgen;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.node.WakuNode;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.PayloadMix;
import io.wakurelay.protocol.ProtocolLimits;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A workload's wire frames (each the bytes a peer writes on its relay stream to publish one message, ready for
 * {@link RelayInjector}), encoded just ahead of use on a thread of its own ({@value #ENCODER_THREAD}), at most
 * {@value #AHEAD} frames in advance, in an allocator of its own. So the load generator's memory does not grow
 * with the message count, the node's pooled memory figures show only what the node uses, and the encoding
 * (payload, protobuf, SHA-256) runs beside the node rather than on its threads ({@link MemorySampler} leaves
 * this thread's allocations out). Frames are taken in order, each once; a frame's hash is known from then on.
 */
final class FrameSet implements AutoCloseable {
    static final String ENCODER_THREAD = "loadgen-encoder";
    static final int AHEAD = 64;
    private static final PooledByteBufAllocator GENERATOR = new PooledByteBufAllocator(true);
    // field 2 of RPC (publish), fields 2 (data) and 4 (topic) of Message, all length-delimited (wire type 2)
    private static final int RPC_PUBLISH_TAG = (2 << 3) | 2;
    private static final int MESSAGE_DATA_TAG = (2 << 3) | 2;
    private static final int MESSAGE_TOPIC_TAG = (4 << 3) | 2;
    private static final Duration TAKE_TIMEOUT = Duration.ofSeconds(60);
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final Workload workload;
    private final int[] sizes;
    private final MessageHash[] hashes;
    private final Map<MessageHash, Integer> indexByHash = new ConcurrentHashMap<>();
    private final BlockingQueue<ByteBuf> ready = new ArrayBlockingQueue<>(AHEAD);
    private final Thread encoder;
    private volatile RuntimeException encoderFailure;
    // the encoder thread's CPU time, updated after each frame: read once the thread has ended, too
    private volatile long encoderCpuNanos;
    private volatile int next; // written by the one thread that takes frames at a time, read by others

    /** {@code count} messages of exactly {@code size} payload bytes (at least 4, to carry the index). */
    static FrameSet fixedSize(String pubsubTopic, String contentTopic, int size, int count, int warmup) {
        return new FrameSet(new Workload(PayloadMix.DEFAULT_SEED, PayloadMix.parse(Math.max(4, size) + ":100"), count, warmup,
                pubsubTopic, contentTopic));
    }

    FrameSet(Workload workload) {
        this.workload = workload;
        this.sizes = workload.sizes();
        this.hashes = new MessageHash[workload.total()];
        this.encoder = new Thread(this::encodeAll, ENCODER_THREAD);
        encoder.setDaemon(true);
        encoder.start();
    }

    private void encodeAll() {
        ProtocolLimits limits = ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO).withMaxMessageSize(
                Math.max(ProtocolLimits.DEFAULT_MAX_MESSAGE_SIZE, workload.mix().maxBytes() + 1024));
        EnvelopeEncoder envelopes = new EnvelopeEncoder(new MessageValidator(limits, WakuNode::nowNanos), new PathCounters());
        // one payload buffer for all messages: the encoder copies the payload into the frame
        ByteBuffer payload = ByteBuffer.allocate(workload.mix().maxBytes());
        try {
            for (int i = 0; i < sizes.length; i++) {
                payload.clear();
                workload.fill(payload, i, sizes[i]);
                payload.flip();
                Envelope e = envelopes.encode(workload.pubsubTopic(), workload.message(i, payload, WakuNode.nowNanos()), GENERATOR);
                ByteBuf frame = relayStreamBytes(GENERATOR, workload.pubsubTopic(), e.messageBytes());
                hashes[i] = e.hash();
                indexByHash.put(e.hash(), i);
                e.release();
                encoderCpuNanos = Math.max(0, CPU.getCurrentThreadCpuTime());
                try {
                    ready.put(frame);
                } catch (InterruptedException closed) {
                    frame.release();
                    return;
                }
            }
        } catch (RuntimeException e) {
            encoderFailure = e;
        }
    }

    /**
     * What a peer writes on its relay stream to publish {@code message} on {@code topic}: the varint length, then
     * {@code RPC{publish: [Message{data: message, topic}]}} (StrictNoSign: no from, seqno or signature). Written
     * field by field into one direct buffer: building the protobuf objects copied each message twice onto the heap,
     * and that garbage, the generator's, made up most of the peak heap a run reports.
     */
    static ByteBuf relayStreamBytes(ByteBufAllocator alloc, String topic, ByteBuf message) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        int data = message.readableBytes();
        int messageSize = fieldSize(data) + fieldSize(topicBytes.length);
        int rpcSize = fieldSize(messageSize);
        ByteBuf out = alloc.directBuffer(Uvarint.size(rpcSize) + rpcSize);
        Uvarint.write(out, rpcSize);
        Uvarint.write(out, RPC_PUBLISH_TAG);
        Uvarint.write(out, messageSize);
        Uvarint.write(out, MESSAGE_DATA_TAG);
        Uvarint.write(out, data);
        out.writeBytes(message, message.readerIndex(), data);
        Uvarint.write(out, MESSAGE_TOPIC_TAG);
        Uvarint.write(out, topicBytes.length);
        return out.writeBytes(topicBytes);
    }

    /** A length-delimited field of {@code length} bytes with a one-byte tag. */
    private static int fieldSize(int length) {
        return 1 + Uvarint.size(length) + length;
    }

    /** The next frame, which must be frame {@code i}; the caller takes ownership. */
    ByteBuf frame(int i) {
        if (i != next) {
            throw new IllegalStateException("frames are taken in order: expected frame " + next + ", asked for " + i);
        }
        ByteBuf frame;
        try {
            frame = ready.poll(TAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for frame " + i, e);
        }
        if (frame == null) {
            throw new IllegalStateException("frame " + i + " was not encoded within " + TAKE_TIMEOUT, encoderFailure);
        }
        next++;
        return frame;
    }

    /** The hash of frame {@code i}, once {@link #frame(int)} has returned it. */
    MessageHash hash(int i) {
        if (i >= next) {
            throw new IllegalStateException("frame " + i + " has not been taken yet");
        }
        return hashes[i];
    }

    int payloadSize(int i) {
        return sizes[i];
    }

    /** -1 when the hash is not one of this set's frames taken so far. */
    int indexOf(MessageHash hash) {
        return indexByHash.getOrDefault(hash, -1);
    }

    /** Frames taken so far: frames 0 to taken() - 1 have a hash. */
    int taken() {
        return next;
    }

    /**
     * CPU time the encoder thread has spent so far (to its last frame): the load generator's share of a window's
     * process CPU, which a scenario subtracts to report its node's alone.
     */
    long encoderCpuNanos() {
        return encoderCpuNanos;
    }

    /** Frames encoded so far, taken or not. */
    int encoded() {
        return indexByHash.size();
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
        encoder.interrupt();
        try {
            encoder.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ByteBuf frame; (frame = ready.poll()) != null; ) {
            frame.release();
        }
    }
}
