package io.wakurelay.loadgen;

import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.node.metrics.ProcessMemory;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Memory figures over a measurement window of this JVM: peak heap (the sum of every heap pool's peak),
 * peak resident set size (VmHWM, reset at the start where Linux allows), peak Netty pooled direct memory
 * (sampled), heap bytes allocated by all threads, and collections.
 */
public final class MemorySampler implements AutoCloseable {
    public record Figures(double peakHeapMb, double peakRssMb, double peakDirectMb, long allocatedBytes, long gcCount) {
    }

    private static final double MB = 1024.0 * 1024.0;

    private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> allocatedAtStart = new HashMap<>();
    private final long gcAtStart;
    private volatile long peakDirect;
    private volatile boolean running = true;
    private final Thread sampler;

    public MemorySampler() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        resetPeakRss();
        for (long id : threads.getAllThreadIds()) {
            allocatedAtStart.put(id, Math.max(0, threads.getThreadAllocatedBytes(id)));
        }
        gcAtStart = gcCount();
        peakDirect = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        sampler = new Thread(this::sample, "memory-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (running) {
            peakDirect = Math.max(peakDirect, PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Linux resets VmHWM when "5" is written to /proc/self/clear_refs. */
    private static void resetPeakRss() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // the peak then covers the whole process lifetime; still an upper bound
        }
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    public Figures stop() {
        running = false;
        sampler.interrupt();
        long heapPeak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                heapPeak += pool.getPeakUsage().getUsed();
            }
        }
        long allocated = 0;
        // the sampler itself allocates a little; it is included, as every thread is
        for (long id : threads.getAllThreadIds()) {
            long now = threads.getThreadAllocatedBytes(id);
            if (now > 0) {
                allocated += now - allocatedAtStart.getOrDefault(id, 0L);
            }
        }
        return new Figures(heapPeak / MB, ProcessMemory.peakResidentBytes() / MB,
                Math.max(peakDirect, PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory()) / MB,
                allocated, gcCount() - gcAtStart);
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }
}
