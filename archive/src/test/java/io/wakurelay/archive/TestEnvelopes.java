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
final class TestEnvelopes {
    static final String PUBSUB = TestMessages.PUBSUB_TOPIC;
    static final String CONTENT = TestMessages.CONTENT_TOPIC;
    /** 2023-11-14T22:13:20Z: fixed, so orderings are reproducible. */
    static final long BASE_TIME = 1_700_000_000_000_000_000L;

    private static final EnvelopeEncoder ENCODER = new EnvelopeEncoder(
            new MessageValidator(TestMessages.NO_CLOCK_LIMITS, TestMessages::nowNanos), new PathCounters());

    private TestEnvelopes() {
    }

    static Envelope envelope(int index, int payloadSize, long timestamp) {
        return encode(PUBSUB, TestMessages.message(index, payloadSize, timestamp));
    }

    static Envelope envelope(String pubsubTopic, String contentTopic, int index, int payloadSize, long timestamp) {
        return encode(pubsubTopic, TestMessages.message(index, payloadSize, timestamp).toBuilder().setContentTopic(contentTopic).build());
    }

    static Envelope ephemeral(int index) {
        return encode(PUBSUB, TestMessages.message(index, 32, BASE_TIME + index).toBuilder().setEphemeral(true).build());
    }

    static Envelope withoutTimestamp(int index) {
        return encode(PUBSUB, TestMessages.message(index, 32, 0).toBuilder().clearTimestamp().build());
    }

    static Envelope encode(String pubsubTopic, WakuMessage message) {
        return ENCODER.encode(pubsubTopic, message, PooledByteBufAllocator.DEFAULT);
    }

    /** {@code count} distinct small messages, one nanosecond apart from {@link #BASE_TIME}. */
    static List<Envelope> sequence(int from, int count, int payloadSize) {
        List<Envelope> envelopes = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            envelopes.add(envelope(i, payloadSize, BASE_TIME + i));
        }
        return envelopes;
    }

    static WakuMessage payload(int index, int size) {
        return TestMessages.message(index, size, BASE_TIME + index).toBuilder().setPayload(ByteString.copyFrom(new byte[size])).build();
    }
}
