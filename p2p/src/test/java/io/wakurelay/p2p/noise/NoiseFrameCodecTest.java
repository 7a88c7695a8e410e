package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Noise transport framing on embedded channels: {@link NoiseFrameEncoder} on one, {@link NoiseFrameDecoder}
 * on the other, both ciphers keyed alike, so that what the encoder writes is what the decoder reads.
 */
class NoiseFrameCodecTest {
    private static final byte[] KEY = new byte[32];

    private final Counting counters = new Counting();
    private final EmbeddedChannel sender = new EmbeddedChannel(new NoiseFrameEncoder(new CipherState(KEY), counters));
    private final EmbeddedChannel receiver = new EmbeddedChannel(new NoiseFrameDecoder(new CipherState(KEY), counters));

    @AfterEach
    void close() {
        sender.finishAndReleaseAll();
        receiver.finishAndReleaseAll();
    }

    @Test
    void writesBeforeAFlushLeaveAsOneMessageAndTheirPromisesCompleteWhenItIsWritten() {
        ChannelFuture header = sender.write(Unpooled.wrappedBuffer(bytes(3, 1)));
        ChannelFuture data = sender.write(Unpooled.wrappedBuffer(bytes(10, 4)));
        assertThat((Object) sender.readOutbound()).as("nothing before the flush").isNull();
        assertThat(header.isDone()).isFalse();

        sender.flush();
        List<ByteBuf> messages = outbound();
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).getUnsignedShort(0)).isEqualTo(13 + CipherState.TAG_LENGTH);
        assertThat(header.isSuccess()).isTrue();
        assertThat(data.isSuccess()).isTrue();
        assertThat(counters.encrypted).hasValue(13);

        assertThat(decrypt(messages)).containsExactly(concat(bytes(3, 1), bytes(10, 4)));
        assertThat(counters.decrypted).hasValue(13);
    }

    @Test
    void aWriteLongerThanOneMessageIsSplitIntoMessagesOfAtMost65535Bytes() {
        byte[] plain = bytes(150_000, 7);
        sender.writeAndFlush(Unpooled.wrappedBuffer(plain));
        List<ByteBuf> messages = outbound();
        assertThat(messages).extracting(m -> m.getUnsignedShort(0))
                .containsExactly(65_535, 65_535, 150_000 - 2 * NoiseFrameEncoder.MAX_PLAINTEXT + CipherState.TAG_LENGTH);
        assertThat(messages).allSatisfy(m -> assertThat(m.readableBytes()).isEqualTo(2 + m.getUnsignedShort(0)));

        assertThat(concat(decrypt(messages).toArray(byte[][]::new))).isEqualTo(plain);
    }

    @Test
    void aMessageSplitAcrossReadsIsDecodedOnlyOnceWhole() {
        sender.writeAndFlush(Unpooled.wrappedBuffer(bytes(100, 2)));
        ByteBuf message = outbound().get(0);
        int size = message.readableBytes();
        for (int at = 0; at < size - 1; at++) {
            receiver.writeInbound(message.readRetainedSlice(1));
            assertThat((Object) receiver.readInbound()).as("after %d of %d bytes", at + 1, size).isNull();
        }
        receiver.writeInbound(message.readRetainedSlice(1));
        message.release();
        ByteBuf plain = receiver.readInbound();
        assertThat(ByteBufUtil.getBytes(plain)).isEqualTo(bytes(100, 2));
        plain.release();
    }

    @Test
    void aLengthTooShortForTheTagIsRefusedBeforeItsBytesArrive() {
        ByteBuf prefix = Unpooled.buffer(2).writeShort(CipherState.TAG_LENGTH - 1);
        assertThatThrownBy(() -> receiver.writeInbound(prefix))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(NoiseException.class);
    }

    @Test
    void aMessageChangedOnTheWayFailsAuthentication() {
        sender.writeAndFlush(Unpooled.wrappedBuffer(bytes(40, 3)));
        ByteBuf message = outbound().get(0);
        message.setByte(10, message.getByte(10) ^ 1);
        assertThatThrownBy(() -> receiver.writeInbound(message))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(NoiseException.class);
        assertThat(counters.decrypted).hasValue(0);
    }

    @Test
    void writesWaitingForAFlushFailWhenTheConnectionCloses() {
        ChannelFuture unflushed = sender.write(Unpooled.wrappedBuffer(bytes(10, 5)));
        sender.close();
        assertThat(unflushed.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(counters.encrypted).hasValue(0);
    }

    private List<ByteBuf> outbound() {
        List<ByteBuf> messages = new ArrayList<>();
        for (ByteBuf m; (m = sender.readOutbound()) != null; ) {
            messages.add(m);
        }
        return messages;
    }

    /** Feeds {@code messages} to the receiver (ownership passes) and returns each plaintext it decoded. */
    private List<byte[]> decrypt(List<ByteBuf> messages) {
        messages.forEach(receiver::writeInbound);
        List<byte[]> plain = new ArrayList<>();
        for (ByteBuf m; (m = receiver.readInbound()) != null; ) {
            plain.add(ByteBufUtil.getBytes(m));
            m.release();
        }
        return plain;
    }

    private static byte[] bytes(int size, int seed) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * seed + seed);
        }
        return b;
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuf all = Unpooled.buffer();
        for (byte[] p : parts) {
            all.writeBytes(p);
        }
        return ByteBufUtil.getBytes(all);
    }

    private static final class Counting implements NoiseCounters {
        final AtomicLong encrypted = new AtomicLong();
        final AtomicLong decrypted = new AtomicLong();

        @Override
        public void encrypted(int plaintextBytes) {
            encrypted.addAndGet(plaintextBytes);
        }

        @Override
        public void decrypted(int plaintextBytes) {
            decrypted.addAndGet(plaintextBytes);
        }
    }
}
