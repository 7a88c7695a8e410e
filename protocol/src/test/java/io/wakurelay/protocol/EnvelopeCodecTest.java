package io.wakurelay.protocol;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
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
        ByteBuf wire = wire(sent);
        Envelope got = decoder.decode(TOPIC, wire, wire);
        try {
            assertThat(got.message().toProto(inspection)).isEqualTo(message);
            assertThat(sent.message().toProto(inspection)).isEqualTo(message);
            assertThat(got.hash()).isEqualTo(sent.hash()).isEqualTo(new MessageHasher(inspection).hash(TOPIC, message));
            assertThat(got.pubsubTopic()).isEqualTo(TOPIC);
            assertThat(ByteString.copyFrom(bytes(got.messageBytes()))).isEqualTo(message.toByteString());
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
            byte[] written = bytes(e.messageBytes());
            e.release();
            assertThat(written).isEqualTo(m.toByteArray());
        }
    }

    @Test
    void decodesAMessageSplitOverSeveralBuffersWithoutCopying() {
        Envelope sent = encoder.encode(TOPIC, TestMessages.message(3, 10_000, NOW), PooledByteBufAllocator.DEFAULT);
        ByteBuf whole = wire(sent);
        int half = whole.readableBytes() / 2;
        CompositeByteBuf split = Unpooled.compositeBuffer()
                .addComponent(true, whole.retainedSlice(0, half))
                .addComponent(true, whole.retainedSlice(half, whole.readableBytes() - half));
        whole.release();
        Envelope got = decoder.decode(TOPIC, split, split);
        assertThat(got.hash()).isEqualTo(sent.hash());
        assertThat(got.message().payload().nioBufferCount()).as("the payload spans both parts, aliased").isEqualTo(2);
        got.release();
        split.release();
        sent.release();
        assertThat(receiver.payloadCopies()).isZero();
    }

    @Test
    void decodesAHeapBuffer() {
        Envelope sent = encoder.encode(TOPIC, TestMessages.message(2, 10_000, NOW), PooledByteBufAllocator.DEFAULT);
        ByteBuf heap = Unpooled.wrappedBuffer(bytes(sent.messageBytes()));
        Envelope got = decoder.decode(TOPIC, heap, heap);
        assertThat(got.hash()).isEqualTo(sent.hash());
        got.release();
        sent.release();
    }

    @Test
    void envelopeHoldsItsOwnReference() {
        Envelope sent = encoder.encode(TOPIC, TestMessages.message(4, 100, NOW), PooledByteBufAllocator.DEFAULT);
        ByteBuf buffer = wire(sent);
        Envelope got = decoder.decode(TOPIC, buffer, buffer);
        buffer.release();
        sent.release();
        assertThat(got.refCnt()).isEqualTo(1);
        assertThat(got.message().payloadSize()).isEqualTo(100);
        got.release();
        assertThat(got.refCnt()).isZero();
    }

    @Test
    void rejectsAMessageOverTheMaximumSizeBeforeDecodingIt() {
        ByteBuf frame = messageBuffer(ByteString.copyFrom(new byte[ProtocolLimits.DEFAULT_MAX_MESSAGE_SIZE + 1]));
        assertViolation(frame, Violation.MESSAGE_TOO_LARGE);
        assertThat(receiver.decodes()).isZero();
    }

    @Test
    void rejectsMalformedMessageBytes() {
        assertViolation(messageBuffer(ByteString.copyFrom(new byte[]{0x0a, 0x7f})), Violation.MALFORMED_MESSAGE);
    }

    @Test
    void rejectsInvalidUtf8InTheContentTopic() {
        // field 2 (content_topic), length 2, bytes C3 28 (an invalid two-byte sequence)
        assertViolation(messageBuffer(ByteString.copyFrom(new byte[]{0x12, 0x02, (byte) 0xc3, 0x28})), Violation.INVALID_UTF8);
    }

    @Test
    void rejectsMissingContentTopic() {
        WakuMessage m = WakuMessage.newBuilder().setPayload(ByteString.copyFromUtf8("x")).build();
        assertViolation(messageBuffer(m.toByteString()), Violation.MISSING_CONTENT_TOPIC);
    }

    /** nwaku's relay validator never parses a content topic: a peer's {@code Hello World!} is relayed, not penalised. */
    @Test
    void acceptsAContentTopicThatIsNotFourPartAsNwakuRelaysIt() {
        WakuMessage m = TestMessages.message(1, 10, NOW).toBuilder().setContentTopic("Hello World!").build();
        ByteBuf frame = messageBuffer(m.toByteString());
        Envelope got = decoder.decode(TOPIC, frame, frame);
        try {
            assertThat(got.message().contentTopic()).isEqualTo("Hello World!");
        } finally {
            got.release();
            frame.release();
        }
        Envelope sent = encoder.encode(TOPIC, m, PooledByteBufAllocator.DEFAULT);
        sent.release();
    }

    /** nwaku bounds a content topic only by the message's size; the interop suite relays topics of 1,000 bytes. */
    @Test
    void acceptsContentTopicsUpToTheirOwnLimitWhilePubsubTopicsKeepTheirs() {
        String thousand = "x".repeat(1000);
        WakuMessage m = TestMessages.message(1, 10, NOW).toBuilder().setContentTopic(thousand).build();
        ByteBuf frame = messageBuffer(m.toByteString());
        Envelope got = decoder.decode(TOPIC, frame, frame);
        assertThat(got.message().contentTopic()).isEqualTo(thousand);
        got.release();
        frame.release();
        WakuMessage tooLong = m.toBuilder().setContentTopic("x".repeat(ProtocolLimits.DEFAULT_MAX_CONTENT_TOPIC_BYTES + 1)).build();
        assertViolation(messageBuffer(tooLong.toByteString()), Violation.INVALID_CONTENT_TOPIC);
        assertThatThrownBy(() -> Topics.checkPubsubTopic("/waku/2/" + "x".repeat(300), ProtocolLimits.DEFAULTS.maxTopicBytes()))
                .isInstanceOf(ProtocolViolation.class);
    }

    @Test
    void rejectsMetaOverSixtyFourBytes() {
        WakuMessage m = TestMessages.message(1, 10, NOW).toBuilder().setMeta(ByteString.copyFrom(new byte[65])).build();
        assertViolation(messageBuffer(m.toByteString()), Violation.META_TOO_LARGE);
        // the words nwaku's interop suite matches on (go-waku's; it takes them beside nwaku's own)
        assertThatThrownBy(() -> encoder.encode(TOPIC, m, PooledByteBufAllocator.DEFAULT))
                .hasMessageContaining("invalid length for Meta field");
        WakuMessage ok = TestMessages.message(1, 10, NOW).toBuilder().setMeta(ByteString.copyFrom(new byte[64])).build();
        ByteBuf frame = messageBuffer(ok.toByteString());
        decoder.decode(TOPIC, frame, frame).release();
        frame.release();
    }

    @Test
    void acceptsAnyTimestampAsNwakusRelayDoesAndIndexesAnAbsentOneAtTheReceiveTime() {
        long drift = Duration.ofSeconds(21).toNanos();
        for (long timestamp : new long[]{NOW + drift, NOW - drift, Long.MIN_VALUE, Long.MAX_VALUE}) {
            ByteBuf far = messageBuffer(TestMessages.message(1, 10, timestamp).toByteString());
            Envelope accepted = decoder.decode(TOPIC, far, far);
            assertThat(accepted.message().timestamp()).isEqualTo(timestamp);
            assertThat(accepted.receivedAtNanos()).isEqualTo(NOW);
            accepted.release();
            far.release();
        }
        WakuMessage noTimestamp = TestMessages.message(1, 10, 0).toBuilder().clearTimestamp().build();
        ByteBuf frame = messageBuffer(noTimestamp.toByteString());
        Envelope got = decoder.decode(TOPIC, frame, frame);
        assertThat(got.indexTimestamp()).as("falls back to the receive time").isEqualTo(NOW);
        got.release();
        frame.release();
    }

    @Test
    void encoderAppliesTheSameRules() {
        WakuMessage bad = TestMessages.message(1, 10, NOW).toBuilder().setContentTopic("no\0pe").build();
        assertThatThrownBy(() -> encoder.encode(TOPIC, bad, PooledByteBufAllocator.DEFAULT))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.INVALID_CONTENT_TOPIC);
        assertThat(sender.encodes()).isZero();
    }

    private void assertViolation(ByteBuf frame, Violation expected) {
        try {
            assertThatThrownBy(() -> decoder.decode(TOPIC, frame, frame))
                    .isInstanceOf(ProtocolViolation.class)
                    .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(expected);
            assertThat(frame.refCnt()).as("a rejected message keeps only the caller's reference").isEqualTo(1);
        } finally {
            frame.release();
        }
    }

    static ByteBuf messageBuffer(ByteString message) {
        return PooledByteBufAllocator.DEFAULT.directBuffer(message.size()).writeBytes(message.toByteArray());
    }

    /** A new pooled copy of an envelope's message bytes, as a peer would send them. */
    private static ByteBuf wire(Envelope e) {
        return messageBuffer(ByteString.copyFrom(bytes(e.messageBytes())));
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }
}
