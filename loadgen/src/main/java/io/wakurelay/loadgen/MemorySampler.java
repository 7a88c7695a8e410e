package io.wakurelay.loadgen;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.node.metrics.ProcessMemory;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Memory figures over a measurement window of this JVM: peak heap (the heap in use just before each collection,
 * when it is highest, and every 10 ms between; summing each pool's own peak would add peaks of different moments),
 * peak resident set size (VmHWM, reset at the start where Linux allows), peak Netty pooled direct memory
 * (sampled), heap bytes allocated by all threads but the load generator's frame encoder, and collections.
 */
public final class MemorySampler implements AutoCloseable {
    public record Figures(double peakHeapMb, double peakRssMb, double peakDirectMb, long allocatedBytes, long gcCount) {
    }

    private static final double MB = 1024.0 * 1024.0;
    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toUnmodifiableSet());

    private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> allocatedAtStart = new HashMap<>();
    private final long gcAtStart;
    private volatile long peakDirect;
    private final AtomicLong peakHeap = new AtomicLong();
    private final NotificationListener beforeCollection = this::onCollection;
    private final Periodic sampler;

    public MemorySampler() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(beforeCollection, null, null);
            }
        }
        peakHeap.set(heapUsed());
        resetPeakRss();
        for (long id : threads.getAllThreadIds()) {
            allocatedAtStart.put(id, Math.max(0, threads.getThreadAllocatedBytes(id)));
        }
        gcAtStart = gcCount();
        peakDirect = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
        sampler = new Periodic("memory-sampler", Duration.ofMillis(10), this::sample);
    }

    private void sample() {
        peakDirect = Math.max(peakDirect, PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
        peakHeap.accumulateAndGet(heapUsed(), Math::max);
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private void onCollection(Notification notification, Object handback) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            GcInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo();
            long before = 0;
            for (Map.Entry<String, MemoryUsage> pool : info.getMemoryUsageBeforeGc().entrySet()) {
                if (HEAP_POOLS.contains(pool.getKey())) {
                    before += pool.getValue().getUsed();
                }
            }
            peakHeap.accumulateAndGet(before, Math::max);
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
        close();
        long heapPeak = Math.max(peakHeap.get(), heapUsed());
        long allocated = 0;
        // the sampler itself allocates a little; it is included, as every thread is but the frame encoder,
        // whose work is the load generator's, not the node's
        for (long id : threads.getAllThreadIds()) {
            long now = threads.getThreadAllocatedBytes(id);
            ThreadInfo info = threads.getThreadInfo(id);
            if (now > 0 && (info == null || !FrameSet.ENCODER_THREAD.equals(info.getThreadName()))) {
                allocated += now - allocatedAtStart.getOrDefault(id, 0L);
            }
        }
        return new Figures(heapPeak / MB, ProcessMemory.peakResidentBytes() / MB,
                Math.max(peakDirect, PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory()) / MB,
                allocated, gcCount() - gcAtStart);
    }

    @Override
    public void close() {
        sampler.close();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                try {
                    emitter.removeNotificationListener(beforeCollection);
                } catch (ListenerNotFoundException alreadyRemoved) {
                    // stop() and close() both remove it
                }
            }
        }
    }
}
