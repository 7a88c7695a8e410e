package io.wakurelay.p2p.noise;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Noise transport framing on embedded channels: {@link NoiseFrameEncoder} on one, {@link NoiseFrameDecoder}
 * on the other, both ciphers keyed alike, so that what the encoder writes is what the decoder reads; with each
 * implementation of the cipher, since the codecs feed the JDK's heap arrays and Conscrypt's direct buffers.
 */
@ParameterizedClass
@MethodSource("io.wakurelay.p2p.noise.Implementations#both")
class NoiseFrameCodecTest {
    private static final byte[] KEY = new byte[32];

    private final ChaChaPoly implementation;
    private final Counting counters = new Counting();
    private final EmbeddedChannel sender;
    private final EmbeddedChannel receiver;

    NoiseFrameCodecTest(ChaChaPoly implementation) {
        this.implementation = implementation;
        sender = new EmbeddedChannel(new NoiseFrameEncoder(new CipherState(implementation, KEY), counters));
        receiver = new EmbeddedChannel(new NoiseFrameDecoder(new CipherState(implementation, KEY), counters));
    }

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
    void whatOneImplementationWritesTheOtherReads() {
        ChaChaPoly other = Implementations.both().filter(i -> i != implementation).findFirst().orElseThrow();
        EmbeddedChannel otherReceiver = new EmbeddedChannel(new NoiseFrameDecoder(new CipherState(other, KEY), counters));
        EmbeddedChannel otherSender = new EmbeddedChannel(new NoiseFrameEncoder(new CipherState(other, KEY), counters));
        try {
            byte[] plain = bytes(150_000, 9);
            sender.writeAndFlush(Unpooled.wrappedBuffer(plain));
            outbound().forEach(otherReceiver::writeInbound);
            assertThat(inbound(otherReceiver)).as("%s's messages read by %s", implementation, other).isEqualTo(plain);

            otherSender.writeAndFlush(Unpooled.wrappedBuffer(plain));
            for (ByteBuf m; (m = otherSender.readOutbound()) != null; ) {
                receiver.writeInbound(m);
            }
            assertThat(inbound(receiver)).as("%s's messages read by %s", other, implementation).isEqualTo(plain);
        } finally {
            otherReceiver.finishAndReleaseAll();
            otherSender.finishAndReleaseAll();
        }
    }

    /**
     * Conscrypt copies heap buffers into two new direct buffers on every call, which only a collection frees: at 64
     * KiB a message they used up the direct memory limit, and each allocation past it waited for a full collection.
     * Neither codec may make the cipher allocate direct memory per message, whichever cipher it is.
     */
    @Test
    void messagesAllocateNoDirectMemoryOfTheirOwn() {
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
        byte[] plain = bytes(NoiseFrameEncoder.MAX_PLAINTEXT, 5);
        sender.writeAndFlush(Unpooled.directBuffer(plain.length).writeBytes(plain)); // the pools' first chunks
        outbound().forEach(receiver::writeInbound);
        assertThat(inbound(receiver)).isEqualTo(plain);
        long before = direct.getCount();
        for (int i = 0; i < 64; i++) {
            sender.writeAndFlush(Unpooled.directBuffer(plain.length).writeBytes(plain));
            outbound().forEach(receiver::writeInbound);
            assertThat(inbound(receiver)).isEqualTo(plain);
        }
        assertThat(direct.getCount() - before).as("direct buffers made for 64 messages of 64 KiB").isLessThan(16);
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

    /** What {@code channel} decoded, concatenated (each buffer released). */
    private static byte[] inbound(EmbeddedChannel channel) {
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf m; (m = channel.readInbound()) != null; ) {
            all.writeBytes(m);
            m.release();
        }
        return ByteBufUtil.getBytes(all);
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
