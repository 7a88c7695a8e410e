package io.wakurelay.services;

import com.google.protobuf.ByteString;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;

import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;

/** Valid messages for the service tests: seeded payloads, timestamps a millisecond apart ending now. */
public final class Messages {
    private Messages() {
    }

    public static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    public static WakuMessage message(int index, int payloadSize, long timestampNanos, String contentTopic) {
        byte[] payload = new byte[payloadSize];
        new SplittableRandom(index).nextBytes(payload);
        return WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(contentTopic)
                .setTimestamp(timestampNanos).build();
    }

    /** Message {@code index} of {@code count}, stamped {@code count - index} ms before {@code endNanos}. */
    public static WakuMessage inSeries(int index, int count, long endNanos, int payloadSize) {
        return message(index, payloadSize, endNanos - (long) (count - index) * 1_000_000L, ServiceNode.CONTENT_TOPIC);
    }

    /** The hash of {@code message} on {@code topic}, as the relay computes it. */
    public static MessageHash hashOf(String topic, WakuMessage message) {
        EnvelopeEncoder encoder = new EnvelopeEncoder(new MessageValidator(ProtocolLimits.DEFAULTS
                .withMaxClockDrift(Duration.ZERO), Messages::nowNanos), new PathCounters());
        Envelope envelope = encoder.encode(topic, message, PooledByteBufAllocator.DEFAULT);
        try {
            return envelope.hash();
        } finally {
            envelope.release();
        }
    }
}
