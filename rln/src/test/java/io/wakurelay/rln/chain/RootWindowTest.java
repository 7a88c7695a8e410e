package io.wakurelay.rln.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class RootWindowTest {
    private final List<byte[]> roots = ChainVectors.roots();

    @Test
    void sixtyRootsInAWindowOfFiftyLeaveTheLastFifty() {
        RootWindow window = new RootWindow(50);
        for (byte[] root : roots) {
            assertThat(window.add(root)).isTrue();
            assertThat(window.size()).isLessThanOrEqualTo(50);
        }
        assertThat(window.size()).isEqualTo(50);
        for (int i = 0; i < roots.size(); i++) {
            assertThat(window.contains(roots.get(i), 0)).as("root after registration %d", i + 1).isEqualTo(i >= 10);
        }
        assertThat(window.roots()).containsExactlyElementsOf(roots.subList(10, 60));
    }

    @Test
    void theNewestRootAgainChangesNothing() {
        RootWindow window = new RootWindow(3);
        window.add(roots.get(0));
        assertThat(window.add(roots.get(0).clone())).isFalse();
        assertThat(window.size()).isEqualTo(1);
    }

    @Test
    void aRootThatComesBackMovesToTheNewestPlaceAndIsHeldOnce() {
        RootWindow window = new RootWindow(3);
        window.add(roots.get(0));
        window.add(roots.get(1));
        window.add(roots.get(2));
        assertThat(window.add(roots.get(0))).isTrue();
        assertThat(window.roots()).containsExactly(roots.get(1), roots.get(2), roots.get(0));
        window.add(roots.get(3));
        assertThat(window.roots()).containsExactly(roots.get(2), roots.get(0), roots.get(3));
    }

    @Test
    void aRootIsFoundAtAnOffsetOfAnArrayAndAtAnIndexOfABuffer() {
        RootWindow window = new RootWindow(50);
        window.add(roots.get(5));
        byte[] message = new byte[100];
        System.arraycopy(roots.get(5), 0, message, 37, 32);
        assertThat(window.contains(message, 37)).isTrue();
        assertThat(window.contains(message, 36)).isFalse();
        ByteBuf buf = Unpooled.wrappedBuffer(message);
        try {
            assertThat(window.contains(buf, 37)).isTrue();
            assertThat(window.contains(buf, 38)).isFalse();
            assertThat(buf.readerIndex()).isZero();
        } finally {
            buf.release();
        }
        assertThatThrownBy(() -> window.contains(message, 69)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void anEmptyWindowHoldsNothing() {
        RootWindow window = new RootWindow(50);
        assertThat(window.contains(roots.get(0), 0)).isFalse();
        assertThat(window.size()).isZero();
        assertThatThrownBy(() -> window.add(new byte[31])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void askingAllocatesNothing() {
        RootWindow window = new RootWindow(50);
        roots.forEach(window::add);
        byte[] unknown = new byte[32];
        byte[] known = roots.get(59);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        int found = 0;
        for (int i = 0; i < 200_000; i++) { // warm up: the JIT compiles contains
            found += window.contains(i % 2 == 0 ? known : unknown, 0) ? 1 : 0;
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            found += window.contains(i % 2 == 0 ? known : unknown, 0) ? 1 : 0;
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(found).isEqualTo(150_000);
        assertThat(allocated).as("bytes allocated by 100,000 contains").isLessThan(100_000);
    }
}
