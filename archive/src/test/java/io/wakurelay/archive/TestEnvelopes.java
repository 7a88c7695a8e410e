package io.wakurelay.archive;

import com.google.protobuf.ByteString;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;

import java.util.ArrayList;
import java.util.List;

/** Envelopes in pooled direct buffers, as the relay hands them to the archive. Each owns one reference. */
public final class TestEnvelopes {
    public static final String PUBSUB = TestMessages.PUBSUB_TOPIC;
    public static final String CONTENT = TestMessages.CONTENT_TOPIC;
    /** 2023-11-14T22:13:20Z: fixed, so orderings are reproducible. */
    public static final long BASE_TIME = 1_700_000_000_000_000_000L;

    private static final EnvelopeEncoder ENCODER = new EnvelopeEncoder(
            new MessageValidator(TestMessages.NO_CLOCK_LIMITS, TestMessages::nowNanos), new PathCounters());

    private static final io.wakurelay.protocol.EnvelopeDecoder DECODER = new io.wakurelay.protocol.EnvelopeDecoder(
            new MessageValidator(TestMessages.NO_CLOCK_LIMITS, TestMessages::nowNanos), new PathCounters());

    private TestEnvelopes() {
    }

    public static Envelope envelope(int index, int payloadSize, long timestamp) {
        return encode(PUBSUB, TestMessages.message(index, payloadSize, timestamp));
    }

    public static Envelope envelope(String pubsubTopic, String contentTopic, int index, int payloadSize, long timestamp) {
        return encode(pubsubTopic, TestMessages.message(index, payloadSize, timestamp).toBuilder().setContentTopic(contentTopic).build());
    }

    public static Envelope ephemeral(int index) {
        return encode(PUBSUB, TestMessages.message(index, 32, BASE_TIME + index).toBuilder().setEphemeral(true).build());
    }

    public static Envelope withoutTimestamp(int index) {
        return encode(PUBSUB, TestMessages.message(index, 32, 0).toBuilder().clearTimestamp().build());
    }

    /**
     * The envelope of {@code message} as a node decodes it when it arrived in several network buffers (a message
     * larger than one Noise frame): its bytes are a composite of {@code parts} direct buffers.
     */
    public static Envelope composite(int index, int payloadSize, int parts) {
        Envelope encoded = envelope(index, payloadSize, BASE_TIME + index);
        io.netty.buffer.ByteBuf bytes = encoded.messageBytes();
        io.netty.buffer.CompositeByteBuf composite = PooledByteBufAllocator.DEFAULT.compositeDirectBuffer(parts);
        int size = bytes.readableBytes();
        for (int i = 0; i < parts; i++) {
            int from = size * i / parts;
            int to = size * (i + 1) / parts;
            composite.addComponent(true, PooledByteBufAllocator.DEFAULT.directBuffer(to - from)
                    .writeBytes(bytes, bytes.readerIndex() + from, to - from));
        }
        encoded.release();
        try {
            return DECODER.decode(PUBSUB, composite, composite);
        } finally {
            composite.release(); // the envelope holds its own reference
        }
    }

    public static Envelope encode(String pubsubTopic, WakuMessage message) {
        return ENCODER.encode(pubsubTopic, message, PooledByteBufAllocator.DEFAULT);
    }

    /** {@code count} distinct small messages, one nanosecond apart from {@link #BASE_TIME}. */
    public static List<Envelope> sequence(int from, int count, int payloadSize) {
        List<Envelope> envelopes = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            envelopes.add(envelope(i, payloadSize, BASE_TIME + i));
        }
        return envelopes;
    }

    public static WakuMessage payload(int index, int size) {
        return TestMessages.message(index, size, BASE_TIME + index).toBuilder().setPayload(ByteString.copyFrom(new byte[size])).build();
    }
}
