package io.wakurelay.p2p.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The byte-array form (multiaddrs) reads and writes exactly what the buffer form (framing) does. */
class UvarintTest {

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 127, 128, 300, 16_383, 16_384, 1L << 35, (1L << 63) - 1})
    void anArrayAndABufferCarryTheSameBytesAndValue(long value) {
        ByteArrayOutputStream array = new ByteArrayOutputStream();
        Uvarint.write(array, value);
        ByteBuf buffer = Unpooled.buffer();
        try {
            Uvarint.write(buffer, value);
            byte[] bytes = array.toByteArray();
            assertThat(bytes).hasSize(Uvarint.size(value)).isEqualTo(io.netty.buffer.ByteBufUtil.getBytes(buffer));

            byte[] shifted = new byte[bytes.length + 3];
            System.arraycopy(bytes, 0, shifted, 2, bytes.length);
            int[] next = new int[1];
            assertThat(Uvarint.read(shifted, 2, next)).isEqualTo(value);
            assertThat(next[0]).isEqualTo(2 + bytes.length);
            assertThat(Uvarint.read(buffer)).isEqualTo(value);
        } finally {
            buffer.release();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "80", "ffff"})
    void anArrayThatEndsInsideTheVarintIsIncomplete(String hex) {
        int[] next = {-7};
        assertThat(Uvarint.read(HexFormat.of().parseHex(hex), 0, next)).isEqualTo(Uvarint.INCOMPLETE);
        assertThat(next[0]).as("unchanged").isEqualTo(-7);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8000", "ff00", "ffffffffffffffffff01"})
    void aNonMinimalOrOverlongVarintIsRefusedFromAnArrayAsFromABuffer(String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        assertThatThrownBy(() -> Uvarint.read(bytes, 0, new int[1])).isInstanceOf(WireFormatException.class);
        ByteBuf buffer = Unpooled.wrappedBuffer(bytes);
        try {
            assertThatThrownBy(() -> Uvarint.read(buffer)).isInstanceOf(WireFormatException.class);
        } finally {
            buffer.release();
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, Long.MIN_VALUE})
    void aNegativeValueIsNoVarint(long value) {
        assertThatThrownBy(() -> Uvarint.write(new ByteArrayOutputStream(), value)).isInstanceOf(IllegalArgumentException.class);
    }
}
