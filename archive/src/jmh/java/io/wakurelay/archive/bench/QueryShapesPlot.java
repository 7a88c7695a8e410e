package io.wakurelay.archive.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency distributions {@link QueryShapesLatency} wrote for two backends, one histogram per shape with both
 * backends overlaid on logarithmic buckets, as one SVG (nwaku plots its insert and query time distributions the same
 * way in docs/benchmarks/postgres-adoption.md).
 *
 * <pre>java -cp archive/target/archive-benchmarks.jar io.wakurelay.archive.bench.QueryShapesPlot OUT.rocksdb.tsv OUT.postgres.tsv plot.svg</pre>
 */
public final class QueryShapesPlot {
    private static final int PANEL_W = 460;
    private static final int PANEL_H = 170;
    private static final int BUCKETS = 48;
    /** 10 µs to 1 s. */
    private static final double LO = 4;
    private static final double HI = 9;
    private static final String[] COLOURS = {"#1f77b4", "#e4572e"};

    private QueryShapesPlot() {
    }

    public static void main(String[] args) throws Exception {
        List<String> backends = List.of("RocksDB", "PostgreSQL");
        List<Map<String, List<Long>>> data = List.of(read(Path.of(args[0])), read(Path.of(args[1])));
        List<String> shapes = new ArrayList<>(data.get(0).keySet());
        int columns = 2;
        int rows = (shapes.size() + columns - 1) / columns;
        int width = columns * (PANEL_W + 40) + 20;
        int height = rows * (PANEL_H + 70) + 60;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", width, height));
        for (int b = 0; b < backends.size(); b++) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"14\" width=\"12\" height=\"12\" fill=\"%s\" fill-opacity=\"0.6\"/>"
                    + "<text x=\"%d\" y=\"24\">%s</text>%n", 20 + b * 130, COLOURS[b], 36 + b * 130, backends.get(b)));
        }
        for (int i = 0; i < shapes.size(); i++) {
            int x0 = 30 + (i % columns) * (PANEL_W + 40);
            int y0 = 50 + (i / columns) * (PANEL_H + 70);
            panel(svg, shapes.get(i), List.of(data.get(0).getOrDefault(shapes.get(i), List.of()),
                    data.get(1).getOrDefault(shapes.get(i), List.of())), x0, y0);
        }
        svg.append("</svg>\n");
        Files.writeString(Path.of(args[2]), svg, StandardCharsets.UTF_8);
    }

    private static void panel(StringBuilder svg, String shape, List<List<Long>> series, int x0, int y0) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", x0, y0 - 6, escape(shape)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
                x0, y0, PANEL_W, PANEL_H));
        double step = (HI - LO) / BUCKETS;
        for (int s = 0; s < series.size(); s++) {
            List<Long> values = series.get(s);
            if (values.isEmpty()) {
                continue;
            }
            int[] counts = new int[BUCKETS];
            for (long v : values) {
                int k = (int) ((Math.log10(Math.max(1, v)) - LO) / step);
                counts[Math.max(0, Math.min(BUCKETS - 1, k))]++;
            }
            double w = (double) PANEL_W / BUCKETS;
            for (int k = 0; k < BUCKETS; k++) {
                // the share of the series' queries in the bucket, so that series of different counts compare
                double share = counts[k] / (double) values.size();
                double h = Math.min(1, share * 2.5) * PANEL_H;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                        + "fill-opacity=\"0.55\"/>%n", x0 + k * w, y0 + PANEL_H - h, w, h, COLOURS[s]));
            }
            long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">p50 %s, p99 %s (%d)</text>%n",
                    x0 + PANEL_W - 210, y0 + 14 + 13 * s, COLOURS[s], format(sorted[sorted.length / 2]),
                    format(sorted[(int) (sorted.length * 0.99)]), sorted.length));
        }
        for (int decade = (int) LO; decade <= (int) HI; decade++) {
            double x = x0 + (decade - LO) / (HI - LO) * PANEL_W;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, y0, x, y0 + PANEL_H, x, y0 + PANEL_H + 14,
                    format((long) Math.pow(10, decade))));
        }
    }

    private static Map<String, List<Long>> read(Path tsv) throws Exception {
        Map<String, List<Long>> byShape = new LinkedHashMap<>();
        for (String line : Files.readAllLines(tsv)) {
            String[] parts = line.split("\t");
            if (parts.length == 2 && !parts[0].equals("shape")) {
                byShape.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Long.parseLong(parts[1]));
            }
        }
        return byShape;
    }

    private static String format(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3g s", nanos / 1e9);
        }
        if (nanos >= 1_000_000) {
            return String.format(Locale.ROOT, "%.3g ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g µs", nanos / 1e3);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;");
    }
}
