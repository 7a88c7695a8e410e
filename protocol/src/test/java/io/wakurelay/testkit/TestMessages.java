package io.wakurelay.testkit;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;

import java.util.SplittableRandom;

/** Messages for tests: valid by default, with a payload that tells them apart. */
public final class TestMessages {
    public static final String PUBSUB_TOPIC = "/waku/2/rs/0/0";
    public static final String CONTENT_TOPIC = "/waku/2/default-content/proto";
    /** Limits for tests that use fixed, old timestamps. */
    public static final ProtocolLimits NO_CLOCK_LIMITS = ProtocolLimits.DEFAULTS.withMaxClockDrift(java.time.Duration.ZERO);

    private TestMessages() {
    }

    /** A message whose payload is {@code size} seeded bytes starting with {@code index} (4 bytes). */
    public static WakuMessage message(int index, int size, long timestampNanos) {
        byte[] payload = new byte[size];
        new SplittableRandom(index).nextBytes(payload);
        for (int i = 0; i < Math.min(4, size); i++) {
            payload[i] = (byte) (index >>> (24 - 8 * i));
        }
        return WakuMessage.newBuilder()
                .setPayload(ByteString.copyFrom(payload))
                .setContentTopic(CONTENT_TOPIC)
                .setTimestamp(timestampNanos)
                .build();
    }

    public static long nowNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
