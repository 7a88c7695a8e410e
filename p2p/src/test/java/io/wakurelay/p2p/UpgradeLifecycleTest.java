package io.wakurelay.p2p;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class UpgradeLifecycleTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final Promise<HostConnection> result = channel.eventLoop().newPromise();

    UpgradeLifecycleTest() {
        channel.pipeline().addLast(new UpgradeLifecycle(result, Duration.ofSeconds(10)));
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void anEvictionEndsAHandshakeWithItsOwnOutcomeAndClosesTheSocket() {
        channel.pipeline().fireUserEventTriggered(UpgradeLifecycle.EVICTION);

        assertThat(result.cause()).isInstanceOf(HandshakeException.class);
        assertThat(((HandshakeException) result.cause()).outcome()).isEqualTo("evicted");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void anOutcomeAnotherHandlerNamedIsCountedAsItNamedIt() {
        channel.pipeline().fireExceptionCaught(new HandshakeException("first_bytes_timeout", "silent", null));

        assertThat(((HandshakeException) result.cause()).outcome()).isEqualTo("first_bytes_timeout");
    }

    @Test
    void otherEventsLeaveTheHandshakeAlone() {
        channel.pipeline().fireUserEventTriggered("something else");

        assertThat(result.isDone()).isFalse();
        assertThat(channel.isOpen()).isTrue();
    }
}
