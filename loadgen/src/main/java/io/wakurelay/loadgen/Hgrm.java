package io.wakurelay.loadgen;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run's latencies as HdrHistogram's percentile distribution (the {@code .hgrm} text that HdrHistogram's plotter
 * and wrk2 read), in microseconds: every sample recorded, 3 significant digits.
 */
final class Hgrm {
    private static final double NANOS_PER_MICRO = 1000.0;

    private Hgrm() {
    }

    /** {@code report.html} → {@code report.hgrm}, in the same directory. */
    static Path besides(Path html) {
        String name = html.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return html.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".hgrm");
    }

    static Histogram histogram(long[] latenciesNanos) {
        Histogram histogram = new Histogram(3); // auto-resizing: no value is out of range
        for (long nanos : latenciesNanos) {
            histogram.recordValue(Math.max(0, nanos));
        }
        return histogram;
    }

    static void write(Path file, long[] latenciesNanos) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            histogram(latenciesNanos).outputPercentileDistribution(out, NANOS_PER_MICRO);
        }
    }
}
