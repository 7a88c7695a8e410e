package io.wakurelay.protocol;

import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The vectors are those of RFC 14/WAKU2-MESSAGE, which hashes the timestamp. */
class MessageHashTest {
    private static final String PUBSUB = "/waku/2/default-waku/proto";
    private static final String CONTENT = "/waku/2/default-content/proto";
    private static final ByteString PAYLOAD = hex("010203045445535405060708");
    private static final ByteString META_12 = hex("73757065722d736563726574");
    private static final long TIMESTAMP = 0x175789bfa23f8400L;

    private final PathCounters counters = new PathCounters();
    private final MessageHasher hasher = new MessageHasher(counters);

    private static ByteString hex(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }

    private static WakuMessage.Builder base() {
        return WakuMessage.newBuilder().setPayload(PAYLOAD).setContentTopic(CONTENT).setTimestamp(TIMESTAMP);
    }

    @Test
    void specVectorWithTwelveByteMeta() {
        WakuMessage m = base().setMeta(META_12).build();
        assertThat(hasher.hash(PUBSUB, m).toHex())
                .isEqualTo("0x64cce733fed134e83da02b02c6f689814872b1a0ac97ea56b76095c3c72bfe05");
    }

    @Test
    void specVectorWithSixtyFourByteMeta() {
        byte[] meta = new byte[64];
        for (int i = 0; i < 64; i++) {
            meta[i] = (byte) i;
        }
        WakuMessage m = base().setMeta(ByteString.copyFrom(meta)).build();
        assertThat(hasher.hash(PUBSUB, m).toHex())
                .isEqualTo("0x7158b6498753313368b9af8f6e0a0a05104f68f972981da42a43bc53fb0c1b27");
    }

    @Test
    void specVectorWithoutMetaAddsNoBytes() {
        assertThat(hasher.hash(PUBSUB, base().build()).toHex())
                .isEqualTo("0xa2554498b31f5bcdfcbf7fa58ad1c2d45f0254f3f8110a85588ec3cf10720fd8");
    }

    @Test
    void specVectorWithEmptyPayload() {
        WakuMessage m = base().setPayload(ByteString.EMPTY).setMeta(META_12).build();
        assertThat(hasher.hash(PUBSUB, m).toHex())
                .isEqualTo("0x483ea950cb63f9b9d6926b262bb36194d3f40a0463ce8446228350bd44e96de4");
    }

    @Test
    void absentTimestampHashesAsEightZeroBytesLikeTimestampZero() {
        WakuMessage absent = WakuMessage.newBuilder().setPayload(PAYLOAD).setContentTopic(CONTENT).setMeta(META_12).build();
        WakuMessage zero = absent.toBuilder().setTimestamp(0).build();
        // sha256(pubsub ‖ payload ‖ content ‖ meta ‖ 00000000 00000000), computed independently
        String expected = "0xa7b48e67027664b7fb29d15bfe318bb8845b60bf27bf99822a246a4cb6389e08";
        assertThat(hasher.hash(PUBSUB, absent).toHex()).isEqualTo(expected);
        assertThat(hasher.hash(PUBSUB, zero).toHex()).isEqualTo(expected);
    }

    @Test
    void versionEphemeralAndProofAreNotHashed() {
        WakuMessage plain = base().setMeta(META_12).build();
        WakuMessage decorated = plain.toBuilder().setVersion(7).setEphemeral(true)
                .setRateLimitProof(ByteString.copyFromUtf8("proof")).build();
        assertThat(hasher.hash(PUBSUB, decorated)).isEqualTo(hasher.hash(PUBSUB, plain));
    }

    @Test
    void everyHashIsCounted() {
        hasher.hash(PUBSUB, base().build());
        hasher.hash(PUBSUB, base().build());
        assertThat(counters.hashes()).isEqualTo(2);
    }

    @Test
    void hexRoundTripsAndRejectsBadText() {
        MessageHash h = hasher.hash(PUBSUB, base().build());
        assertThat(MessageHash.parse(h.toHex())).isEqualTo(h);
        assertThat(MessageHash.parse(h.toHex().substring(2).toUpperCase())).isEqualTo(h);
        assertThatThrownBy(() -> MessageHash.parse("0x1234")).hasMessageContaining("64 hex digits");
        assertThatThrownBy(() -> MessageHash.parse("0x" + "zz".repeat(32))).hasMessageContaining("64 hex digits");
    }

    @Test
    void ordersAsUnsignedBytes() {
        byte[] low = new byte[32];
        byte[] high = new byte[32];
        high[0] = (byte) 0xff;
        assertThat(MessageHash.of(low)).isLessThan(MessageHash.of(high));
    }
}
