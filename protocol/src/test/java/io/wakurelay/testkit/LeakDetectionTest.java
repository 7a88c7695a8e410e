package io.wakurelay.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The leak check that guards every other test must itself notice a leak. */
class LeakDetectionTest {
    @Test
    void reportsABufferThatWasNeverReleased() {
        assertThat(LeakDetection.collectLeaks()).as("nothing leaked before this test").isEmpty();
        leakOne();
        assertThat(LeakDetection.collectLeaks()).hasSize(1).first().asString().contains("LEAK", "leakOne");
    }

    private static void leakOne() {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        leaked.writeLong(42);
        leaked.touch("leakOne");
    }
}
