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

/**
 * On an embedded channel, bytes written and not flushed are bytes the socket has not taken. The guard looks every
 * quarter of its 10 s timeout, so a stall is found 10 to 12.5 s after the socket last took something.
 */
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

    /** Time passes as on an event loop: in small steps, each running what fell due. */
    private void advance(int seconds) {
        for (int i = 0; i < seconds * 10; i++) {
            channel.advanceTimeBy(100, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
        }
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
        advance(1);
        assertThat(stalls).as("9 s").hasValue(0);
        advance(4);
        assertThat(stalls).as("13 s").hasValue(1);
    }

    @Test
    void aSocketThatTakesPartOfAMessageInEachQuarterIsNotStalled() {
        channel.write(Unpooled.buffer().writeZero(100));
        for (int i = 0; i < 20; i++) {
            advance(2);
            channel.flush(); // what an embedded channel can show of progress: the socket took what waited
            channel.write(Unpooled.buffer().writeZero(100));
        }
        assertThat(stalls).hasValue(0);
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
