package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Ping;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameDecoderTest {
    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));
    private final List<ByteBuf> received = new ArrayList<>();

    @AfterEach
    void releaseAll() {
        received.forEach(ByteBuf::release);
        channel.finishAndReleaseAll();
    }

    private static ByteBuf ping(long nonce) {
        return FrameCodec.encode(Frame.newBuilder().setPing(Ping.newBuilder().setNonce(nonce)).build(), PooledByteBufAllocator.DEFAULT);
    }

    private static long ping(ByteBuf frame) {
        return ((InboundFrame.Control) FrameCodec.parse(frame)).frame().getPing().getNonce();
    }

    private List<ByteBuf> drain() {
        for (ByteBuf b; (b = channel.readInbound()) != null; ) {
            received.add(b);
        }
        return received;
    }

    @Test
    void emitsEachFrameWithItsPrefixAsASliceOfTheInput() {
        ByteBuf two = Unpooled.wrappedBuffer(ping(1), ping(2));
        channel.writeInbound(two);
        List<ByteBuf> frames = drain();
        assertThat(frames).hasSize(2);
        assertThat(ping(frames.get(0))).isEqualTo(1);
        assertThat(ping(frames.get(1))).isEqualTo(2);
        assertThat(frames.get(0).unwrap()).as("a slice, not a copy").isNotNull();
    }

    @Test
    void reassemblesAFrameSplitAcrossReads() {
        ByteBuf whole = ping(300);
        int n = whole.readableBytes();
        for (int i = 0; i < n; i++) {
            channel.writeInbound(whole.retainedSlice(i, 1));
            assertThat(drain()).hasSize(i == n - 1 ? 1 : 0);
        }
        whole.release();
        assertThat(ping(received.get(0))).isEqualTo(300);
    }

    @Test
    void refusesAnOversizedLengthBeforeReadingTheFrame() {
        ByteBuf prefixOnly = Unpooled.buffer().writeByte(0x81).writeByte(0x08); // 1025, one past the limit
        assertThatThrownBy(() -> channel.writeInbound(prefixOnly))
                .isInstanceOf(DecoderException.class)
                .cause().isInstanceOf(ProtocolViolation.class)
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.FRAME_TOO_LARGE);
    }

    @Test
    void refusesAVarintThatNeverEnds() {
        EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(Integer.MAX_VALUE));
        ByteBuf endless = Unpooled.buffer().writeBytes(new byte[]{(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80});
        assertThatThrownBy(() -> big.writeInbound(endless))
                .cause().extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.MALFORMED_LENGTH_PREFIX);
        big.finishAndReleaseAll();
    }

    @Test
    void discardsEverythingAfterAViolation() {
        ByteBuf bad = Unpooled.buffer().writeByte(0xff).writeByte(0xff).writeByte(0x7f);
        assertThatThrownBy(() -> channel.writeInbound(bad)).isInstanceOf(DecoderException.class);
        channel.writeInbound(ping(5));
        assertThat(drain()).isEmpty();
    }

    @Test
    void reportsAConnectionThatEndsMidFrame() {
        ByteBuf whole = ping(7);
        channel.writeInbound(whole.readRetainedSlice(whole.readableBytes() - 1));
        whole.release();
        assertThatThrownBy(channel::finish)
                .cause().extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.TRUNCATED_FRAME);
    }

    @Test
    void parseRejectsAFrameOfNoKnownKind() {
        ByteBuf empty = Unpooled.buffer().writeByte(0);
        assertThatThrownBy(() -> FrameCodec.parse(empty))
                .extracting(e -> ((ProtocolViolation) e).violation()).isEqualTo(Violation.MALFORMED_FRAME);
    }
}
