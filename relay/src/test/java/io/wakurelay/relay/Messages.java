package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.WakuMessage;

import java.time.Instant;
import java.util.SplittableRandom;

/** Valid messages for the relay tests. */
final class Messages {
    static final String TOPIC = "/waku/2/rs/0/0";
    static final String CONTENT_TOPIC = "/test/1/relay/proto";

    private Messages() {
    }

    static WakuMessage message(int index, int size) {
        byte[] payload = new byte[size];
        new SplittableRandom(index).nextBytes(payload);
        Instant now = Instant.now();
        return WakuMessage.newBuilder().setPayload(ByteString.copyFrom(payload)).setContentTopic(CONTENT_TOPIC)
                .setTimestamp(now.getEpochSecond() * 1_000_000_000L + now.getNano()).build();
    }
}
