package io.wakurelay.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page (no scripts, no external files): what the run was (JDK, CPU, commit, seed, mix), the
 * units, the rows, nwaku's published figure beside ours where there is one, for each row that measured
 * latencies a histogram on logarithmic buckets and a cumulative distribution, and for each row with a timeline its
 * throughput over time and its heap against messages done ({@code TimelinePlots}), drawn as inline SVG.
 */
final class HtmlReport {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 220;

    private HtmlReport() {
    }

    /** nwaku's published figures (Apple M4), for the scenarios that reproduce its benchmarks. */
    static final Map<String, Double> NWAKU_MSG_PER_S = Map.of("micro", 2273.7, "macro", 353.1);
    static final String UNITS = "Units: *_ns nanoseconds, *_ms milliseconds, msg_per_s messages per second, *_mb MiB "
            + "(2^20 bytes), mb_per_s payload megabytes (10^6 bytes) per second, alloc_bytes_per_msg bytes allocated per "
            + "message, *_per_msg counts per message.";

    static void write(Path file, List<ResultRow> rows, Map<String, String> facts) throws IOException {
        StringBuilder html = new StringBuilder();
        html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>wakurelay loadgen</title>")
                .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}</style></head><body>")
                .append("<h1>wakurelay loadgen</h1><table>");
        facts.forEach((k, v) -> html.append("<tr><th>").append(escape(k)).append("</th><td>").append(escape(v)).append("</td></tr>"));
        html.append("</table><p>").append(escape(UNITS)).append("</p>");
        for (ResultRow row : rows) {
            html.append("<h2>").append(escape(row.scenario())).append("</h2>");
            Double nwaku = NWAKU_MSG_PER_S.get(row.scenario());
            if (nwaku != null) {
                html.append(String.format(Locale.ROOT, "<p>nwaku's published %s figure: %.1f msg/s (Apple M4, another "
                        + "machine); this run: %.1f msg/s, %.2f × nwaku's.</p>", row.scenario(), nwaku, row.msgPerS(),
                        row.msgPerS() / nwaku));
            }
            html.append("<table>");
            for (Map.Entry<String, Object> e : row.json().entrySet()) {
                html.append("<tr><th>").append(escape(e.getKey())).append("</th><td>").append(escape(String.valueOf(e.getValue())))
                        .append("</td></tr>");
            }
            html.append("</table>");
            if (row.latencies().length > 0) {
                html.append("<h3>latency histogram (").append(row.latencies().length).append(" messages)</h3>")
                        .append(histogram(row.latencies()))
                        .append("<h3>latency, cumulative: the share of messages at or below each latency</h3>")
                        .append(cdf(row.latencies()));
            }
            if (row.timeline().size() >= 2) {
                html.append("<h3>throughput over time: messages done per second, over the last second</h3>")
                        .append(TimelinePlots.throughput(row.timeline()))
                        .append("<h3>heap in use in this JVM (in --processes runs: the load generator's), against messages "
                                + "done; each collection marked</h3>")
                        .append(TimelinePlots.heap(row.timeline()));
            }
        }
        html.append("</body></html>\n");
        Files.writeString(file, html.toString(), StandardCharsets.UTF_8);
    }

    /** Forty buckets of equal width on a logarithmic scale, from the smallest latency to the largest. */
    static String histogram(long[] sorted) {
        int buckets = 40;
        double lo = Math.log10(Math.max(1, sorted[0]));
        double hi = Math.max(lo + 1e-3, Math.log10(Math.max(1, sorted[sorted.length - 1])));
        double step = (hi - lo) / buckets;
        int[] counts = new int[buckets];
        for (long v : sorted) {
            int b = (int) ((Math.log10(Math.max(1, v)) - lo) / step);
            counts[Math.min(buckets - 1, Math.max(0, b))]++;
        }
        int max = 1;
        for (int c : counts) {
            max = Math.max(max, c);
        }
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">", WIDTH, HEIGHT + 40));
        double bar = (double) WIDTH / buckets;
        for (int b = 0; b < buckets; b++) {
            double h = (double) counts[b] / max * HEIGHT;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4a7bd0\">"
                    + "<title>%s to %s: %d</title></rect>", b * bar, HEIGHT - h, Math.max(1, bar - 1), h,
                    format(Math.pow(10, lo + b * step)), format(Math.pow(10, lo + (b + 1) * step)), counts[b]));
        }
        for (int b = 0; b < buckets; b += 8) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>", b * bar, HEIGHT + 15,
                    format(Math.pow(10, lo + b * step))));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"11\">p50 %s, p99 %s, max %s</text>", HEIGHT + 32,
                format(Latencies.percentile(sorted, 50)), format(Latencies.percentile(sorted, 99)), format(sorted[sorted.length - 1])));
        return svg.append("</svg>").toString();
    }

    /** The cumulative distribution on a logarithmic latency axis, one point per 0.5 % of the messages. */
    static String cdf(long[] sorted) {
        double lo = Math.log10(Math.max(1, sorted[0]));
        double hi = Math.max(lo + 1e-3, Math.log10(Math.max(1, sorted[sorted.length - 1])));
        StringBuilder points = new StringBuilder();
        for (int i = 0; i <= 200; i++) {
            int index = Math.min(sorted.length - 1, (int) Math.ceil(i / 200.0 * sorted.length) - 1);
            long v = sorted[Math.max(0, index)];
            double x = (Math.log10(Math.max(1, v)) - lo) / (hi - lo) * WIDTH;
            double y = HEIGHT - i / 200.0 * HEIGHT;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">", WIDTH, HEIGHT + 40));
        svg.append("<polyline fill=\"none\" stroke=\"#4a7bd0\" stroke-width=\"2\" points=\"").append(points.toString().trim()).append("\"/>");
        for (int p : new int[]{50, 90, 99}) {
            double y = HEIGHT - p / 100.0 * HEIGHT;
            svg.append(String.format(Locale.ROOT, "<line x1=\"0\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">p%d %s</text>", y, WIDTH, y, WIDTH, y - 2, p,
                    format(Latencies.percentile(sorted, p))));
        }
        for (int t = 0; t <= 4; t++) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>", t / 4.0 * (WIDTH - 60),
                    HEIGHT + 15, format(Math.pow(10, lo + t / 4.0 * (hi - lo)))));
        }
        return svg.append("</svg>").toString();
    }

    private static String format(double nanos) {
        if (nanos >= 1e9) {
            return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
        }
        if (nanos >= 1e6) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
