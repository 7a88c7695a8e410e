package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A repeated topic is found again without decoding; different bytes never get another's string. */
class RepeatedStringsTest {
    private final RepeatedStrings strings = new RepeatedStrings();

    @Test
    void aKeptStringIsFoundAtAnyOffsetOfAnyBuffer() {
        String topic = "/waku/2/rs/0/ü";
        String kept = strings.keep(topic.getBytes(StandardCharsets.UTF_8), topic);
        ByteBuf buf = Unpooled.wrappedBuffer("xx".getBytes(StandardCharsets.UTF_8), topic.getBytes(StandardCharsets.UTF_8));
        assertThat(strings.find(buf, 2, buf.readableBytes() - 2)).isSameAs(kept);
        buf.release();
    }

    @Test
    void bytesThatDifferOrWereNeverKeptAreNotFound() {
        strings.keep("/app/1/a/proto".getBytes(StandardCharsets.UTF_8), "/app/1/a/proto");
        for (String other : new String[]{"/app/1/b/proto", "/app/1/a/prot", "/app/1/a/protoo", ""}) {
            ByteBuf buf = Unpooled.copiedBuffer(other, StandardCharsets.UTF_8);
            assertThat(strings.find(buf, 0, buf.readableBytes())).as(other).isNull();
            buf.release();
        }
    }

    @Test
    void aNewStringTakesTheSlotOfAnOlderOneAndLongStringsAreNotKept() {
        for (int i = 0; i < 10 * RepeatedStrings.SLOTS; i++) {
            String topic = "/app/1/t" + i + "/proto";
            strings.keep(topic.getBytes(StandardCharsets.UTF_8), topic);
        }
        int found = 0;
        for (int i = 0; i < 10 * RepeatedStrings.SLOTS; i++) {
            ByteBuf buf = Unpooled.copiedBuffer("/app/1/t" + i + "/proto", StandardCharsets.UTF_8);
            String s = strings.find(buf, 0, buf.readableBytes());
            if (s != null) {
                assertThat(s).isEqualTo("/app/1/t" + i + "/proto");
                found++;
            }
            buf.release();
        }
        assertThat(found).as("at most one per slot").isLessThanOrEqualTo(RepeatedStrings.SLOTS);

        String longTopic = "x".repeat(RepeatedStrings.MAX_BYTES + 1);
        strings.keep(longTopic.getBytes(StandardCharsets.UTF_8), longTopic);
        ByteBuf buf = Unpooled.copiedBuffer(longTopic, StandardCharsets.UTF_8);
        assertThat(strings.find(buf, 0, buf.readableBytes())).isNull();
        buf.release();
    }

    @Test
    void invalidUtf8IsRefusedEvenAfterValidBytesOfTheSameLengthWereDecoded() {
        ByteBuf valid = Unpooled.wrappedBuffer(new byte[]{'a', 'b'});
        assertThat(WireReader.utf8(valid, Violation.INVALID_UTF8, "topic")).isEqualTo("ab");
        assertThat(WireReader.utf8(valid, Violation.INVALID_UTF8, "topic")).as("found again").isEqualTo("ab");
        ByteBuf invalid = Unpooled.wrappedBuffer(new byte[]{(byte) 0xC3, (byte) 0x28});
        assertThatThrownBy(() -> WireReader.utf8(invalid, Violation.INVALID_UTF8, "topic"))
                .isInstanceOf(ProtocolViolation.class).hasMessageContaining("not valid UTF-8");
        valid.release();
        invalid.release();
    }
}
