package io.wakurelay.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page (no scripts, no external files) with the rows and, for each row that measured
 * latencies, a histogram of them on logarithmic buckets drawn as inline SVG.
 */
final class HtmlReport {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 220;

    private HtmlReport() {
    }

    static void write(Path file, List<ResultRow> rows) throws IOException {
        StringBuilder html = new StringBuilder();
        html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>wakurelay loadgen</title>")
                .append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}</style></head><body>")
                .append("<h1>wakurelay loadgen</h1>");
        for (ResultRow row : rows) {
            html.append("<h2>").append(row.scenario()).append("</h2><table>");
            for (Map.Entry<String, Object> e : row.json().entrySet()) {
                html.append("<tr><th>").append(escape(e.getKey())).append("</th><td>").append(escape(String.valueOf(e.getValue())))
                        .append("</td></tr>");
            }
            html.append("</table>");
            if (row.latencies().length > 0) {
                html.append("<h3>latency histogram (").append(row.latencies().length).append(" messages)</h3>")
                        .append(histogram(row.latencies()));
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
