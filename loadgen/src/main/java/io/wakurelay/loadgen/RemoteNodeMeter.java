package io.wakurelay.loadgen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node in another process measured over one window from its /metrics: its counters read at the start and at the
 * end (WakuMessage decodes, hashes, payload copies, heap allocated, collections, CPU time), its memory sampled every
 * {@link #SAMPLING} between ({@link RemoteMetrics.Peaks}). Gives a row the figures of a node the load generator does
 * not run ({@code drive}'s {@code --store-at} node) in the columns an in-process node fills from its own counters.
 */
final class RemoteNodeMeter implements AutoCloseable {
    static final Duration SAMPLING = Duration.ofMillis(100);
    /** What the node columns are read from; a node that serves one of them not (not one of ours: nwaku) reports 0 there. */
    static final List<String> READ = List.of("waku_decodes_total", "waku_hashes_total", "waku_payload_copies_total",
            "jvm_memory_used_bytes", "waku_process_rss_bytes", "jvm_gc_memory_allocated_bytes_total", "process_cpu_time_ns_total");

    private final RemoteMetrics metrics;
    private final String before;
    private final RemoteMetrics.Peaks peaks;

    private RemoteNodeMeter(RemoteMetrics metrics) {
        this.metrics = metrics;
        this.before = metrics.scrapeBetweenCollections();
        this.peaks = new RemoteMetrics.Peaks(metrics, SAMPLING);
    }

    /** Starts the window: the counters now, the memory sampled from now on. */
    static RemoteNodeMeter start(RemoteMetrics metrics) {
        return new RemoteNodeMeter(metrics);
    }

    /** The node's figures over {@code count} messages, from the start until now; stops the sampling. */
    Figures finish(long count) {
        peaks.close();
        String after = metrics.scrapeBetweenCollections();
        double n = count;
        List<String> absent = new ArrayList<>();
        for (String name : READ) {
            if (!PrometheusText.has(after, name)) {
                absent.add(name);
            }
        }
        return new Figures(delta(after, "waku_decodes_total") / n, delta(after, "waku_hashes_total") / n,
                delta(after, "waku_payload_copies_total") / n, peaks.heapMb(), peaks.rssMb(), peaks.directMb(),
                RemoteMetrics.allocated(before, after) / n,
                Math.round(RemoteMetrics.collections(after) - RemoteMetrics.collections(before)),
                Math.round(delta(after, "process_cpu_time_ns_total") / n / 100) / 10.0, List.copyOf(absent));
    }

    private double delta(String after, String name) {
        return RemoteMetrics.sum(after, name) - RemoteMetrics.sum(before, name);
    }

    @Override
    public void close() {
        peaks.close();
    }

    /**
     * What the node did per message over the window, and its peak memory.
     *
     * @param absent the metrics of {@link #READ} the node does not serve: their figures are 0, not measured
     */
    record Figures(double decodesPerMsg, double hashesPerMsg, double copiesPerMsg, double peakHeapMb, double peakRssMb,
                   double peakDirectMb, double allocBytesPerMsg, long gcCount, double cpuUsPerMsg, List<String> absent) {

        /**
         * {@code local}'s row (timing and latencies, measured here) with this node's figures in the node columns; the
         * load generator's own memory moves to the JSON as {@code loadgen_*}.
         */
        ResultRow into(ResultRow local, String prefix, Map<String, Object> extras) {
            Map<String, Object> all = new LinkedHashMap<>(local.extras());
            all.putAll(extras);
            all.put(prefix + "_cpu_us_per_msg", cpuUsPerMsg);
            all.put(prefix + "_memory_sampled_every_ms", SAMPLING.toMillis());
            all.put(prefix + "_metrics_absent", absent);
            all.put("loadgen_peak_heap_mb", Math.round(local.peakHeapMb() * 10) / 10.0);
            all.put("loadgen_alloc_bytes_per_msg", Math.round(local.allocBytesPerMsg()));
            all.put("loadgen_gc_count", local.gcCount());
            return new ResultRow(local.scenario(), local.count(), local.elapsedMs(), local.msgPerS(), local.p50Ns(), local.p99Ns(),
                    decodesPerMsg, hashesPerMsg, copiesPerMsg, peakHeapMb, peakRssMb, allocBytesPerMsg, gcCount,
                    local.mbPerS(), local.avgNs(), peakDirectMb, local.missing(), all, local.latencies(), local.timeline());
        }
    }
}
