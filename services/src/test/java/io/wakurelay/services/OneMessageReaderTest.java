package io.wakurelay.services;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OneMessageReaderTest {
    private static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private static ByteBuf bytes(byte[] b, int from, int to) {
        ByteBuf buf = ALLOC.buffer(to - from);
        buf.writeBytes(b, from, to - from);
        return buf;
    }

    @Test
    void aMessageArrivingByteByByteIsCompleteWithItsLastByteAndWhatFollowsIsDiscarded() {
        byte[] body = new byte[300];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        byte[] framed = RawExchange.frame(body);
        try (OneMessageReader reader = new OneMessageReader(ALLOC, 1000)) {
            for (int i = 0; i < framed.length - 1; i++) {
                assertThat(reader.add(bytes(framed, i, i + 1))).isInstanceOf(OneMessageReader.NeedMore.class);
            }
            assertThat(reader.isPartial()).isTrue();
            OneMessageReader.Result last = reader.add(bytes(framed, framed.length - 1, framed.length));
            ByteBuf message = ((OneMessageReader.Complete) last).message();
            try {
                assertThat(ByteBufUtil.getBytes(message)).isEqualTo(body);
            } finally {
                message.release();
            }
            assertThat(reader.add(bytes(framed, 0, 10))).as("a second message is not read").isInstanceOf(OneMessageReader.NeedMore.class);
        }
    }

    @Test
    void aLengthAboveTheLimitIsRefusedAsSoonAsThePrefixIsComplete() {
        byte[] prefix = RawExchange.frame(new byte[1001]);
        try (OneMessageReader reader = new OneMessageReader(ALLOC, 1000)) {
            assertThat(reader.add(bytes(prefix, 0, 1))).isInstanceOf(OneMessageReader.NeedMore.class);
            assertThat(reader.add(bytes(prefix, 1, 2))).isEqualTo(new OneMessageReader.TooLarge(1001, 1000));
        }
    }

    @Test
    void aPrefixThatIsNotAMinimalVarintIsMalformed() {
        try (OneMessageReader reader = new OneMessageReader(ALLOC, 1000)) {
            OneMessageReader.Result r = reader.add(bytes(new byte[]{(byte) 0x81, 0x00}, 0, 2));
            assertThat(r).isInstanceOf(OneMessageReader.Malformed.class);
            assertThat(((OneMessageReader.Malformed) r).reason()).contains("not minimally encoded");
        }
    }
}
