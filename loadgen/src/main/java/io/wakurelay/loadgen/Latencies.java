package io.wakurelay.loadgen;

import java.util.Arrays;

/**
 * Every per-message latency in nanoseconds (none dropped: the array grows past its expected size), with the exact
 * percentiles the reports show.
 */
public final class Latencies {
    private long[] values;
    private int size;

    /** @param capacity the number of samples expected (the array grows if more come) */
    public Latencies(int capacity) {
        this.values = new long[Math.max(16, capacity)];
    }

    public synchronized void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[size++] = nanos;
    }

    public synchronized int size() {
        return size;
    }

    /** A sorted copy. */
    public synchronized long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    /** Nearest-rank percentile (0 < p ≤ 100); 0 when empty. */
    public static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public static long average(long[] values) {
        if (values.length == 0) {
            return 0;
        }
        double sum = 0;
        for (long v : values) {
            sum += v;
        }
        return Math.round(sum / values.length);
    }
}
