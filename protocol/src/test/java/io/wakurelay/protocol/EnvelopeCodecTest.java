package io.wakurelay.protocol;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Publish;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnvelopeCodecTest {
    private static final long NOW = 1_700_000_000_000_000_000L;
    private static final String TOPIC = TestMessages.PUBSUB_TOPIC;

    private final PathCounters sender = new PathCounters();
    private final PathCounters receiver = new PathCounters();
    private final PathCounters inspection = new PathCounters();
    private final MessageValidator validator = new MessageValidator(ProtocolLimits.DEFAULTS, () -> NOW);
    private final EnvelopeEncoder encoder = new EnvelopeEncoder(validator, sender);
    private final EnvelopeDecoder decoder = new EnvelopeDecoder(validator, receiver);

    @Test
    void roundTripGivesTheSameMessageAndHashWithOneEncodeOneDecodeAndNoCopy() {
        WakuMessage message = TestMessages.message(1, 150_000, NOW).toBuilder()
                .setMeta(ByteString.copyFromUtf8("meta")).setVersion(2).setEphemeral(false).build();
        Envelope sent = encoder.encode(TOPIC, message, PooledByteBufAllocator.DEFAULT);
        ByteBuf wire = sent.retainedFrame();
        Envelope got = decoder.decode(wire);
        try {
            assertThat(got.message().toProto(inspection)).isEqualTo(message);
            assertThat(sent.message().toProto(inspection)).isEqualTo(message);
            assertThat(got.hash()).isEqualTo(sent.hash()).isEqualTo(new MessageHasher(inspection).hash(TOPIC, message));
            assertThat(got.pubsubTopic()).isEqualTo(TOPIC);
            assertThat(ByteString.copyFrom(got.messageBuffer())).isEqualTo(message.toByteString());
            assertThat(sender.encodes()).isEqualTo(1);
            assertThat(sender.decodes()).isZero();
            assertThat(sender.hashes()).isEqualTo(1);
            assertThat(receiver.decodes()).isEqualTo(1);
            assertThat(receiver.hashes()).isEqualTo(1);
            assertThat(receiver.payloadCopies()).isZero();
            assertThat(inspection.payloadCopies()).as("toProto is a counted copy").isEqualTo(2);
        } finally {
            got.release();
            wire.release();
            sent.release();
        }
        assertThat(wire.refCnt()).isZero();
    }

    @Test
    void encoderWritesExactlyWhatTheGeneratedCodeWrites() {
        WakuMessage full = TestMessages.message(5, 300, NOW).toBuilder().setVersion(1).setMeta(ByteString.copyFromUtf8("m"))
                .setRateLimitProof(ByteString.copyFromUtf8("proof")).setEphemeral(true).build();
        WakuMessage bare = WakuMessage.newBuilder().setContentTopic(TestMessages.CONTENT_TOPIC).build();
        for (WakuMessage m : new WakuMessage[]{full, bare}) {
            Envelope e = encoder.encode(TOPIC, m, PooledByteBufAllocator.DEFAULT);
            ByteBuf frame = e.retainedFrame();
            byte[] wire = new byte[frame.readableBytes()];
            frame.readBytes(wire);
            frame.release();
            e.release();
            Frame expected = Frame.newBuilder().setPublish(Publish.newBuilder().setPubsubTopic(TOPIC).setMessage(m.toByteString())).build();
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try {
                expected.writeDelimitedTo(out);
            } catch (java.io.IOException ex) {
                throw new AssertionError(ex);
            }
            assertThat(wire).isEqualTo(out.toByteArray());
        }
    }

    @Test
    void decodesAFrameSplitOverSeveralBuffersWithoutCopying() {
        Envelope sent = encoder.encode(TOPIC, TestMessages.message(3, 10_000, NOW), PooledByteBufAllocator.DEFAULT);
        ByteBuf frame = sent.retainedFrame();
        int half = frame.readableBytes() / 2;
        CompositeByteBuf split = Unpooled.compositeBuffer()
                .addComponent(true, frame.retainedSlice(0, half))
                .addComponent(true, frame.retainedSlice(half, frame.readableBytes() - half));
        frame.release();
        Envelope got = decoder.decode(split);
        assertThat(got.hash()).isEqualTo(sent.hash());
        got.release();
        split.release();
        sent.release();
        assertThat(receiver.payloadCopies()).isZero();
    }

    @Test
    void decodesAHeapFrame() {
        Envelope sent = encoder.encode(TOPIC, TestMessages.message(2, 10_000, NOW), PooledByteBufAllocator.DEFAULT);
        ByteBuf frame = sent.retainedFrame();
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        frame.release();
        Envelope got = decoder.decode(Unpooled.wrappedBuffer(bytes));
        assertThat(got.hash()).isEqualTo(sent.hash());
        got.release();
        sent.release();
    }

    @Test
    void envelopeHoldsItsOwnReference() {
        Envelope sent = encoder.encode(TOPIC, TestMessages.message(4, 100, NOW), PooledByteBufAllocator.DEFAULT);
        ByteBuf frame = sent.retainedFrame();
        Envelope got = decoder.decode(frame);
        frame.release();
        sent.release();
        assertThat(got.refCnt()).isEqualTo(1);
        assertThat(got.message().payloadSize()).isEqualTo(100);
        got.release();
        assertThat(got.refCnt()).isZero();
    }

    @Test
    void rejectsAMessageOverTheMaximumSizeBeforeDecodingIt() {
        ByteBuf frame = publishFrame(TOPIC, ByteString.copyFrom(new byte[ProtocolLimits.DEFAULT_MAX_MESSAGE_SIZE + 1]));
        assertViolation(frame, Violation.MESSAGE_TOO_LARGE);
        assertThat(receiver.decodes()).isZero();
    }

    @Test
    void rejectsMalformedMessageBytes() {
        assertViolation(publishFrame(TOPIC, ByteString.copyFrom(new byte[]{0x0a, 0x7f})), Violation.MALFORMED_MESSAGE);
    }

    @Test
    void rejectsInvalidUtf8InTheContentTopic() {
        // field 2 (content_topic), length 2, bytes C3 28 (an invalid two-byte sequence)
        assertViolation(publishFrame(TOPIC, ByteString.copyFrom(new byte[]{0x12, 0x02, (byte) 0xc3, 0x28})), Violation.INVALID_UTF8);
    }

    @Test
    void rejectsMissingContentTopic() {
        WakuMessage m = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("x")).build();
        assertViolation(publishFrame(TOPIC, m.toByteString()), Violation.MISSING_CONTENT_TOPIC);
    }

    @Test
    void rejectsBadPubsubTopic() {
        assertViolation(publishFrame("/not/waku", TestMessages.message(1, 10, NOW).toByteString()), Violation.INVALID_PUBSUB_TOPIC);
    }

    @Test
    void rejectsMetaOverSixtyFourBytes() {
        WakuMessage m = TestMessages.message(1, 10, NOW).toBuilder().setMeta(ByteString.copyFrom(new byte[65])).build();
        assertViolation(publishFrame(TOPIC, m.toByteString()), Violation.META_TOO_LARGE);
        WakuMessage ok = TestMessages.message(1, 10, NOW).toBuilder().setMeta(ByteString.copyFrom(new byte[64])).build();
        ByteBuf frame = publishFrame(TOPIC, ok.toByteString());
        decoder.decode(frame).release();
        frame.release();
    }

    @Test
    void rejectsTimestampsOutsideTheWindowAndAcceptsAbsentOnes() {
        long drift = Duration.ofSeconds(21).toNanos();
        assertViolation(publishFrame(TOPIC, TestMessages.message(1, 10, NOW + drift).toByteString()), Violation.TIMESTAMP_OUT_OF_WINDOW);
        assertViolation(publishFrame(TOPIC, TestMessages.message(1, 10, NOW - drift).toByteString()), Violation.TIMESTAMP_OUT_OF_WINDOW);
        assertViolation(publishFrame(TOPIC, TestMessages.message(1, 10, Long.MIN_VALUE).toByteString()), Violation.TIMESTAMP_OUT_OF_WINDOW);
        WakuMessage noTimestamp = TestMessages.message(1, 10, 0).toBuilder().clearTimestamp().build();
        ByteBuf frame = publishFrame(TOPIC, noTimestamp.toByteString());
        Envelope got = decoder.decode(frame);
        assertThat(got.indexTimestamp()).as("falls back to the receive time").isEqualTo(NOW);
        got.release();
        frame.release();
    }

    @Test
    void rejectsAFrameWithTwoPublishes() {
        ByteBuf one = publishFrame(TOPIC, TestMessages.message(1, 10, NOW).toByteString());
        int prefix = FrameCodec.prefixLength(one);
        ByteBuf body = one.slice(prefix, one.readableBytes() - prefix);
        ByteBuf twice = Unpooled.buffer().writeByte(2 * body.readableBytes()).writeBytes(body).writeBytes(body);
        one.release();
        assertViolation(twice, Violation.MALFORMED_FRAME);
    }

    @Test
    void encoderAppliesTheSameRules() {
        WakuMessage bad = TestMessages.message(1, 10, NOW).toBuilder().setContentTopic("nope").build();
        assertThatThrownBy(() -> encoder.encode(TOPIC, bad, PooledByteBufAllocator.DEFAULT))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.INVALID_CONTENT_TOPIC);
        assertThat(sender.encodes()).isZero();
    }

    private void assertViolation(ByteBuf frame, Violation expected) {
        try {
            assertThatThrownBy(() -> decoder.decode(frame))
                    .isInstanceOf(ProtocolViolation.class)
                    .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(expected);
            assertThat(frame.refCnt()).as("a rejected frame keeps only the caller's reference").isEqualTo(1);
        } finally {
            frame.release();
        }
    }

    static ByteBuf publishFrame(String topic, ByteString message) {
        Frame frame = Frame.newBuilder().setPublish(Publish.newBuilder().setPubsubTopic(topic).setMessage(message)).build();
        return FrameCodec.encode(frame, PooledByteBufAllocator.DEFAULT);
    }
}
