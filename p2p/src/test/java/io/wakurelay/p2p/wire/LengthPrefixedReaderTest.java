package io.wakurelay.p2p.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LengthPrefixedReaderTest {
    private static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private static byte[] stream(List<byte[]> messages) {
        ByteBuf out = ALLOC.heapBuffer();
        for (byte[] m : messages) {
            Uvarint.write(out, m.length);
            out.writeBytes(m);
        }
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        out.release();
        return bytes;
    }

    @Test
    void messagesCutAnywhereComeOutIntactAndStayValidAfterLaterReads() {
        Random random = new Random(5);
        List<byte[]> messages = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            byte[] m = new byte[random.nextInt(200_000)];
            random.nextBytes(m);
            messages.add(m);
        }
        byte[] bytes = stream(messages);
        LengthPrefixedReader reader = new LengthPrefixedReader(ALLOC, 1 << 20);
        List<ByteBuf> out = new ArrayList<>();
        int at = 0;
        while (at < bytes.length) {
            int n = Math.min(bytes.length - at, 1 + random.nextInt(70_000));
            reader.add(ALLOC.directBuffer(n).writeBytes(bytes, at, n));
            at += n;
            for (ByteBuf m; (m = reader.next()) != null; ) {
                out.add(m);
            }
        }
        // every message is checked only now, after the reader discarded what it had read: each must stand on its own
        assertThat(out).hasSize(messages.size());
        for (int i = 0; i < out.size(); i++) {
            byte[] got = new byte[out.get(i).readableBytes()];
            out.get(i).getBytes(out.get(i).readerIndex(), got);
            assertThat(got).isEqualTo(messages.get(i));
            out.get(i).release();
        }
        assertThat(reader.buffered()).isZero();
        reader.close();
    }

    @Test
    void aMessageWithinOneReadIsASliceOfThatReadNotACopy() {
        byte[] bytes = stream(List.of(new byte[]{1, 2, 3}));
        ByteBuf read = ALLOC.directBuffer().writeBytes(bytes);
        long address = read.memoryAddress();
        LengthPrefixedReader reader = new LengthPrefixedReader(ALLOC, 100);
        reader.add(read);
        ByteBuf message = reader.next();
        try {
            assertThat(message.memoryAddress()).as("the bytes after the 1-byte prefix, in place").isEqualTo(address + 1);
        } finally {
            message.release();
            reader.close();
        }
    }

    @Test
    void aLengthAboveTheLimitIsRefusedAndTheReaderReleasesWhatItHeld() {
        LengthPrefixedReader reader = new LengthPrefixedReader(ALLOC, 100);
        ByteBuf prefix = ALLOC.directBuffer();
        Uvarint.write(prefix, 101);
        reader.add(prefix);

        assertThatThrownBy(reader::next).isInstanceOf(WireFormatException.class).hasMessageContaining("exceeds the limit");
        assertThat(reader.buffered()).isZero();
    }
}
