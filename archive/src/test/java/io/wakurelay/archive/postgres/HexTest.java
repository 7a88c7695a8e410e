package io.wakurelay.archive.postgres;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class HexTest {
    @Test
    void everyByteValueIsWrittenAsNwakusLowerCaseHexFromTheReadableBytesOnly() {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        ByteBuf buf = Unpooled.buffer(260).writeByte(0x7f).writeBytes(all);
        try {
            buf.skipBytes(1);
            assertThat(Hex.of(buf)).isEqualTo(HexFormat.of().formatHex(all));
            assertThat(buf.readerIndex()).isEqualTo(1);
            assertThat(Hex.parse(Hex.of(buf))).isEqualTo(all);
        } finally {
            buf.release();
        }
    }
}
