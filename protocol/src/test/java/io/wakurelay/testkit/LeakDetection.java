package io.wakurelay.testkit;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Makes Netty's leak detector (paranoid level) record every leak it reports, so that tests can fail on a
 * leak instead of only logging it. Installed by {@link LeakDetectionSessionListener} before any buffer
 * class is initialised; checked after every test class by {@link LeakCheckExtension}.
 */
public final class LeakDetection {
    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static volatile boolean installed;

    private LeakDetection() {
    }

    public static synchronized void install() {
        if (installed) {
            return;
        }
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
        installed = true;
    }

    public static boolean installed() {
        return installed;
    }

    /**
     * Collects garbage, lets the detector look at what was collected, and returns (and forgets) every leak
     * reported since the last call.
     */
    public static List<String> collectLeaks() {
        for (int round = 0; round < 3; round++) {
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            // the detector only looks at its reference queue when a new buffer is tracked
            poke(PooledByteBufAllocator.DEFAULT);
            poke(UnpooledByteBufAllocator.DEFAULT);
        }
        List<String> leaks = new ArrayList<>();
        for (String leak; (leak = LEAKS.poll()) != null; ) {
            leaks.add(leak);
        }
        return leaks;
    }

    private static void poke(ByteBufAllocator allocator) {
        for (int i = 0; i < 4; i++) {
            allocator.directBuffer(1).release();
            allocator.heapBuffer(1).release();
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<?> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add("LEAK of " + resourceType + ":" + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add("LEAK of " + resourceType + " (no records)");
            super.reportUntracedLeak(resourceType);
        }
    }
}
