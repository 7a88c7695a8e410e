package io.wakurelay.services.bench;

import java.util.Arrays;

/** Latency samples in nanoseconds, summarised as the mean and nearest-rank percentiles in microseconds. */
final class Percentiles {
    private final long[] samples;
    private int n;

    Percentiles(int capacity) {
        samples = new long[capacity];
    }

    void add(long nanos) {
        samples[n++] = nanos;
    }

    String summary() {
        long[] s = Arrays.copyOf(samples, n);
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0) / 1000.0;
        return String.format("n=%d mean=%.1f µs p50=%.1f µs p99=%.1f µs p99.9=%.1f µs max=%.1f µs", n, mean,
                at(s, 0.50), at(s, 0.99), at(s, 0.999), s[n - 1] / 1000.0);
    }

    private static double at(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, rank)] / 1000.0;
    }
}
