package io.wakurelay.loadgen;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One scenario run. {@link #csv()} is the contract row of DESIGN.md with {@code missing} after it; the JSON form
 * carries the same fields plus the extras (MB/s, average latency, Netty direct memory, each scenario's own).
 */
public record ResultRow(String scenario, long count, double elapsedMs, double msgPerS, long p50Ns, long p99Ns,
                        double decodesPerMsg, double hashesPerMsg, double copiesPerMsg, double peakHeapMb, double peakRssMb,
                        double allocBytesPerMsg, long gcCount, double mbPerS, long avgNs, double peakDirectMb, long missing,
                        Map<String, Object> extras, long[] latencies,
                        Timeline.Series timeline) {

    /** DESIGN.md's columns, then those added since, at the end only (a script reads the columns it knows by position). */
    public static final String CSV_HEADER = "scenario,count,elapsed_ms,msg_per_s,p50_ns,p99_ns,decodes_per_msg,hashes_per_msg,"
            + "copies_per_msg,peak_heap_mb,peak_rss_mb,alloc_bytes_per_msg,gc_count,missing";

    /**
     * @param latencies the sorted per-message latencies behind p50/p99 (for the HTML report), possibly empty
     * @param timeline  messages done, heap and collections over the window (for the HTML report), possibly empty
     */
    public ResultRow {
        extras = Map.copyOf(extras);
        latencies = latencies.clone();
        timeline = timeline == null ? Timeline.Series.EMPTY : timeline;
    }


    public String csv() {
        return String.format(Locale.ROOT, "%s,%d,%.1f,%.1f,%d,%d,%.3f,%.3f,%.3f,%.1f,%.1f,%.0f,%d,%d",
                scenario, count, elapsedMs, msgPerS, p50Ns, p99Ns, decodesPerMsg, hashesPerMsg, copiesPerMsg,
                peakHeapMb, peakRssMb, allocBytesPerMsg, gcCount, missing);
    }

    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", scenario);
        m.put("count", count);
        m.put("elapsed_ms", round(elapsedMs, 1));
        m.put("msg_per_s", round(msgPerS, 1));
        m.put("p50_ns", p50Ns);
        m.put("p99_ns", p99Ns);
        m.put("decodes_per_msg", round(decodesPerMsg, 3));
        m.put("hashes_per_msg", round(hashesPerMsg, 3));
        m.put("copies_per_msg", round(copiesPerMsg, 3));
        m.put("peak_heap_mb", round(peakHeapMb, 1));
        m.put("peak_rss_mb", round(peakRssMb, 1));
        // NaN when not measured (a receiver in another process): null in JSON, not a misleading 0
        m.put("alloc_bytes_per_msg", Double.isNaN(allocBytesPerMsg) ? null : Math.round(allocBytesPerMsg));
        m.put("gc_count", gcCount);
        m.put("mb_per_s", round(mbPerS, 1));
        m.put("avg_ns", avgNs);
        m.put("peak_direct_mb", round(peakDirectMb, 1));
        m.put("missing", missing);
        m.putAll(extras);
        return m;
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
