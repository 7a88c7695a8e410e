package io.wakurelay.loadgen;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * What a measurement window looked like over time, for the HTML report's plots: every {@link #INTERVAL} the messages
 * done so far, this JVM's heap in use and its collections so far. Bounded: past {@link #MAX_SAMPLES} every other
 * sample is dropped and the stride doubles, so an hour-long run keeps as many points as a minute-long one.
 */
final class Timeline implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofMillis(100);
    static final int MAX_SAMPLES = 2048;

    /** The samples, oldest first; all arrays of one length. */
    record Series(long[] nanos, long[] done, long[] heapBytes, long[] gcCount) {
        static final Series EMPTY = new Series(new long[0], new long[0], new long[0], new long[0]);

        int size() {
            return nanos.length;
        }
    }

    private final LongSupplier done;
    private final long start = System.nanoTime();
    private final int maxSamples;
    private final long[] nanos;
    private final long[] doneAt;
    private final long[] heap;
    private final long[] gc;
    private int size;
    private int stride = 1;
    private long ticks;
    private final Periodic sampler;

    Timeline(LongSupplier done) {
        this(done, INTERVAL, MAX_SAMPLES);
    }

    /** @param maxSamples even, at least 2 */
    Timeline(LongSupplier done, Duration interval, int maxSamples) {
        if (maxSamples < 2 || maxSamples % 2 != 0) {
            throw new IllegalArgumentException("maxSamples must be even and at least 2, was " + maxSamples);
        }
        this.done = done;
        this.maxSamples = maxSamples;
        this.nanos = new long[maxSamples];
        this.doneAt = new long[maxSamples];
        this.heap = new long[maxSamples];
        this.gc = new long[maxSamples];
        sample(); // the start, so that the first interval has a rate
        this.sampler = new Periodic("timeline", interval, this::tick);
    }

    private synchronized void tick() {
        if (++ticks % stride == 0) {
            sample();
        }
    }

    private synchronized void sample() {
        if (size == maxSamples) {
            for (int i = 0; i < maxSamples / 2; i++) {
                nanos[i] = nanos[2 * i];
                doneAt[i] = doneAt[2 * i];
                heap[i] = heap[2 * i];
                gc[i] = gc[2 * i];
            }
            size = maxSamples / 2;
            stride *= 2;
        }
        nanos[size] = System.nanoTime() - start;
        doneAt[size] = done.getAsLong();
        heap[size] = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        gc[size] = collections();
        size++;
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, bean.getCollectionCount());
        }
        return n;
    }

    /** Stops sampling, takes a last sample, and returns them all. */
    synchronized Series stop() {
        sampler.close();
        sample();
        return new Series(Arrays.copyOf(nanos, size), Arrays.copyOf(doneAt, size), Arrays.copyOf(heap, size),
                Arrays.copyOf(gc, size));
    }

    @Override
    public void close() {
        sampler.close();
    }
}
