package io.wakurelay.p2p;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FirstBytesDeadlineTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();

    FirstBytesDeadlineTest() {
        channel.freezeTime();
        channel.pipeline().addLast(new FirstBytesDeadline(Duration.ofSeconds(3)));
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void advance(int millis) {
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    @Test
    void aSocketThatSendsNothingFailsItsHandshakeWithItsOwnOutcomeAtTheDeadline() {
        advance(2999);
        channel.checkException();

        advance(1);
        assertThatThrownBy(channel::checkException).isInstanceOf(HandshakeException.class)
                .satisfies(e -> assertThat(((HandshakeException) e).outcome()).isEqualTo("first_bytes_timeout"))
                .hasMessageContaining("within PT3S");
    }

    @Test
    void theFirstBytesEndTheDeadlineAndGoOnDownThePipeline() {
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[]{0x13}));
        advance(10_000);

        channel.checkException();
        assertThat(channel.pipeline().get(FirstBytesDeadline.class)).isNull();
        ByteBuf passed = channel.readInbound();
        assertThat(passed.readableBytes()).isEqualTo(1);
        passed.release();
    }

    @Test
    void aSocketThatClosesFirstHasNoDeadlineLeft() {
        channel.close();
        advance(10_000);

        channel.checkException();
    }
}
