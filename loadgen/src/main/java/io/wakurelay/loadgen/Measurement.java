package io.wakurelay.loadgen;

import io.wakurelay.protocol.PathCounters;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * One measurement window: counters and memory at the start, then a {@link ResultRow} at the end. Per-message
 * figures divide by the messages measured.
 */
final class Measurement {
    private final String scenario;
    private final long count;
    /** The measured nodes' counters, summed; empty when the scenario has no node in this JVM to count on. */
    private final List<PathCounters> counters;
    private final long counted;
    private final long decodes0;
    private final long messageIds0;
    private final long hashes0;
    private final long copies0;
    private final MemorySampler memory;
    private final long cpu0 = processCpuNanos();
    final long startNanos = System.nanoTime();
    private Timeline timeline;
    private LongSupplier generatorCpu;
    private long generatorCpu0;

    /** @param counters the receiving node's counters (null when the scenario has no in-process receiver) */
    Measurement(String scenario, long count, PathCounters counters) {
        this(scenario, count, counters, count);
    }

    /** @param counted the messages the counters' node handles in the window (2 per round trip for lat) */
    Measurement(String scenario, long count, PathCounters counters, long counted) {
        this(scenario, count, counters == null ? List.of() : List.of(counters), counted);
    }

    private Measurement(String scenario, long count, List<PathCounters> counters, long counted) {
        this.scenario = scenario;
        this.count = count;
        this.counters = List.copyOf(counters);
        this.counted = counted;
        this.decodes0 = sum(PathCounters::decodes);
        this.hashes0 = sum(PathCounters::hashes);
        this.copies0 = sum(PathCounters::payloadCopies);
        this.messageIds0 = sum(PathCounters::messageIds);
        this.memory = new MemorySampler();
    }

    /**
     * A window over several nodes in this JVM ({@code mesh}, {@code discover}): their counters summed.
     *
     * @param counted the messages the nodes handle together in the window, the divisor of the per-message counts
     */
    static Measurement ofNodes(String scenario, long count, List<PathCounters> counters, long counted) {
        return new Measurement(scenario, count, counters, counted);
    }

    private long sum(ToLongFunction<PathCounters> counter) {
        long total = 0;
        for (PathCounters c : counters) {
            total += counter.applyAsLong(c);
        }
        return total;
    }

    /**
     * Progress on stderr, and the window's timeline for the report (messages done, heap, collections over time):
     * {@code done} counts the messages measured so far.
     */
    Progress progress(String label, LongSupplier done, PrintStream err) {
        if (timeline != null) {
            throw new IllegalStateException("one progress per measurement");
        }
        timeline = new Timeline(done);
        return new Progress(label, count, done, err);
    }

    /**
     * The CPU time of this JVM's threads that are not the node's (the load generator's frame encoder, link-delay
     * proxies), cumulative: over the window it is reported as {@code generator_cpu_us_per_msg}, and the rest of the
     * process's as {@code node_cpu_us_per_msg} (the node's threads with the JVM's own: JIT, GC).
     */
    Measurement notNodeCpu(LongSupplier cpuNanos) {
        this.generatorCpu = cpuNanos;
        this.generatorCpu0 = cpuNanos.getAsLong();
        return this;
    }

    ResultRow finish(long endNanos, Latencies latencies, long payloadBytes, long missing, Map<String, Object> extras) {
        MemorySampler.Figures m = memory.stop();
        Timeline.Series series = timeline == null ? Timeline.Series.EMPTY : timeline.stop();
        double elapsedMs = (endNanos - startNanos) / 1e6;
        long[] sorted = latencies.sorted();
        double seconds = elapsedMs / 1000.0;
        double n = count;
        double c = counted;
        Map<String, Object> all = new LinkedHashMap<>(extras);
        if (!counters.isEmpty()) {
            // gossipsub message ids (SHA-256) per message: beside the CSV's decodes and hashes, in the JSON only
            all.put("message_ids_per_msg", Math.round((sum(PathCounters::messageIds) - messageIds0) / c * 1000) / 1000.0);
        }
        // the CPU of this JVM per message: its nodes, and the generator's encoder, which works just ahead of use
        long cpu = processCpuNanos() - cpu0;
        all.put("jvm_cpu_us_per_msg", Math.round(cpu / n / 100) / 10.0);
        if (generatorCpu != null) {
            long generator = generatorCpu.getAsLong() - generatorCpu0;
            all.put("generator_cpu_us_per_msg", Math.round(generator / n / 100) / 10.0);
            all.put("node_cpu_us_per_msg", Math.round((cpu - generator) / n / 100) / 10.0);
        }
        extras = all;
        return new ResultRow(scenario, count, elapsedMs, count / seconds,
                Latencies.percentile(sorted, 50), Latencies.percentile(sorted, 99),
                counters.isEmpty() ? Double.NaN : (sum(PathCounters::decodes) - decodes0) / c,
                counters.isEmpty() ? Double.NaN : (sum(PathCounters::hashes) - hashes0) / c,
                counters.isEmpty() ? Double.NaN : (sum(PathCounters::payloadCopies) - copies0) / c,
                m.peakHeapMb(), m.peakRssMb(), m.allocatedBytes() / n, m.gcCount(),
                payloadBytes / 1e6 / seconds, Latencies.average(sorted), m.peakDirectMb(), missing, extras, sorted, series);
    }

    /** CPU time of this process so far (all its threads), or 0 where the JVM does not tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }
}
