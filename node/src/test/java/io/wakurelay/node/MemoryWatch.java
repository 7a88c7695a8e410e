package io.wakurelay.node;

import io.netty.util.internal.PlatformDependent;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Peak Netty direct memory and heap in use while a test runs (the whole test JVM: the nodes and their peers). */
final class MemoryWatch implements AutoCloseable {
    final AtomicLong peakDirect = new AtomicLong();
    final AtomicLong peakHeap = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread = new Thread(() -> {
        MemoryMXBean bean = ManagementFactory.getMemoryMXBean();
        while (running.get()) {
            peakDirect.accumulateAndGet(PlatformDependent.usedDirectMemory(), Math::max);
            peakHeap.accumulateAndGet(bean.getHeapMemoryUsage().getUsed(), Math::max);
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                return;
            }
        }
    }, "memory-watch");

    MemoryWatch() {
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
    }

    /** Heap and Netty direct memory in use after a few collections. */
    record Memory(long heap, long direct) {
        static Memory afterGc() throws InterruptedException {
            MemoryMXBean bean = ManagementFactory.getMemoryMXBean();
            for (int i = 0; i < 3; i++) {
                System.gc();
                Thread.sleep(50);
            }
            return new Memory(bean.getHeapMemoryUsage().getUsed(), PlatformDependent.usedDirectMemory());
        }

        @Override
        public String toString() {
            return String.format("heap %.1f MiB, Netty direct %.1f MiB", heap / (double) (1 << 20), direct / (double) (1 << 20));
        }
    }
}
