package io.wakurelay.p2p;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** On an embedded channel, bytes written and not flushed are bytes the socket has not taken. */
class WriteStallGuardTest {
    private final AtomicInteger stalls = new AtomicInteger();
    private final EmbeddedChannel channel = new EmbeddedChannel(
            new WriteStallGuard(Duration.ofSeconds(10), stalls::incrementAndGet));

    WriteStallGuardTest() {
        channel.freezeTime();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void advance(int seconds) {
        channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
    }

    @Test
    void bytesTheSocketTakesNothingOfForTheTimeoutStallTheConnection() {
        channel.write(Unpooled.buffer().writeZero(100));

        advance(9);
        assertThat(stalls).hasValue(0);
        advance(1);
        assertThat(stalls).hasValue(1);
    }

    @Test
    void bytesTheSocketTakesInTimeNeverStallIt() {
        ChannelFuture written = channel.writeAndFlush(Unpooled.buffer().writeZero(100));
        advance(30);

        assertThat(written.isSuccess()).as("the writer's promise hears the outcome").isTrue();
        assertThat(stalls).hasValue(0);
    }

    @Test
    void progressRestartsTheClock() {
        channel.write(Unpooled.buffer().writeZero(100));
        advance(8);
        channel.flush(); // the socket takes the first bytes
        channel.write(Unpooled.buffer().writeZero(100));

        advance(8);
        assertThat(stalls).as("8 s since the socket last took something").hasValue(0);
        advance(2);
        assertThat(stalls).hasValue(1);
    }

    @Test
    void theClockStartsWhenBytesBeginToWaitNotAtTheLastProgress() {
        channel.writeAndFlush(Unpooled.buffer().writeZero(100));
        advance(9);
        channel.write(Unpooled.buffer().writeZero(100));

        advance(1);
        assertThat(stalls).as("the second write has waited 1 s").hasValue(0);
        advance(8);
        assertThat(stalls).hasValue(0);
        advance(1);
        assertThat(stalls).hasValue(1);
    }
}
