package io.wakurelay.protocol;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Differential test of the aliasing reader against protobuf-java's generated parser: on random and mutated
 * encodings both must accept with equal fields, or both must refuse.
 */
class WakuMessageViewTest {
    private static final int CASES = 50_000;
    private final PathCounters counters = new PathCounters();

    @Test
    void agreesWithTheGeneratedParserOnRandomAndMutatedEncodings() {
        SplittableRandom random = new SplittableRandom(7);
        int bothAccepted = 0;
        int bothRefused = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] bytes = mutate(randomMessage(random).toByteArray(), random);
            WakuMessage expected;
            try {
                expected = WakuMessage.parseFrom(bytes);
            } catch (InvalidProtocolBufferException e) {
                expected = null;
            }
            WakuMessage actual;
            ByteBuf buf = Unpooled.wrappedBuffer(bytes);
            try {
                actual = WakuMessageView.read(buf, 0, bytes.length).toProto(counters);
            } catch (ProtocolViolation e) {
                actual = null;
            }
            if (expected == null) {
                assertThat(actual).as("input %s", java.util.HexFormat.of().formatHex(bytes)).isNull();
                bothRefused++;
            } else {
                assertThat(actual).as("input %s", java.util.HexFormat.of().formatHex(bytes)).isNotNull();
                assertThat(actual).isEqualTo(expected.toBuilder().setUnknownFields(com.google.protobuf.UnknownFieldSet.getDefaultInstance()).build());
                bothAccepted++;
            }
        }
        assertThat(bothAccepted).isGreaterThan(CASES / 10);
        assertThat(bothRefused).isGreaterThan(CASES / 10);
    }

    private static WakuMessage randomMessage(SplittableRandom r) {
        WakuMessage.Builder b = WakuMessage.newBuilder();
        byte[] payload = new byte[r.nextInt(40)];
        r.nextBytes(payload);
        b.setPayload(ByteString.copyFrom(payload));
        if (r.nextBoolean()) {
            b.setContentTopic("/app/1/t" + r.nextInt(100) + "/proto");
        }
        if (r.nextBoolean()) {
            b.setVersion(r.nextInt());
        }
        if (r.nextBoolean()) {
            b.setTimestamp(r.nextLong());
        }
        if (r.nextBoolean()) {
            b.setMeta(ByteString.copyFrom(new byte[r.nextInt(70)]));
        }
        if (r.nextInt(4) == 0) {
            b.setRateLimitProof(ByteString.copyFromUtf8("proof" + r.nextInt()));
        }
        if (r.nextBoolean()) {
            b.setEphemeral(r.nextBoolean());
        }
        return b.build();
    }

    private static byte[] mutate(byte[] bytes, SplittableRandom r) {
        switch (r.nextInt(5)) {
            case 0:
                return bytes;
            case 1:
                return java.util.Arrays.copyOf(bytes, r.nextInt(bytes.length + 1));
            case 2: { // append an unknown or duplicate field of a random wire type
                byte[] extra = new byte[r.nextInt(1, 8)];
                r.nextBytes(extra);
                extra[0] = (byte) ((r.nextInt(1, 40) << 3) | r.nextInt(6));
                byte[] out = java.util.Arrays.copyOf(bytes, bytes.length + extra.length);
                System.arraycopy(extra, 0, out, bytes.length, extra.length);
                return out;
            }
            default: {
                byte[] out = bytes.clone();
                if (out.length > 0) {
                    for (int f = r.nextInt(1, 3); f > 0; f--) {
                        out[r.nextInt(out.length)] ^= (byte) r.nextInt(1, 256);
                    }
                }
                return out;
            }
        }
    }
}
