package io.wakurelay.services;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.WakuMessage;

import java.time.Instant;
import java.util.SplittableRandom;

/** Valid messages for the service tests: seeded payloads, timestamps a millisecond apart ending now. */
final class Messages {
    private Messages() {
    }

    static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    static WakuMessage message(int index, int payloadSize, long timestampNanos, String contentTopic) {
        byte[] payload = new byte[payloadSize];
        new SplittableRandom(index).nextBytes(payload);
        return WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(contentTopic)
                .setTimestamp(timestampNanos).build();
    }

    /** Message {@code index} of {@code count}, stamped {@code count - index} ms before {@code endNanos}. */
    static WakuMessage inSeries(int index, int count, long endNanos, int payloadSize) {
        return message(index, payloadSize, endNanos - (long) (count - index) * 1_000_000L, ServiceNode.CONTENT_TOPIC);
    }
}
