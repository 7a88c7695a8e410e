package io.wakurelay.loadgen;

import java.util.Locale;

/**
 * The HTML report's plots of a {@link Timeline}, as inline SVG: throughput over time (messages done per second,
 * over the last second at each sample), and heap in use against messages done with each collection marked.
 */
final class TimelinePlots {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 220;
    private static final double MB = 1024.0 * 1024.0;

    private TimelinePlots() {
    }

    /** Messages per second at each sample, over the second before it (over the interval before it at the start). */
    static double[] rates(Timeline.Series s) {
        double[] rates = new double[s.size()];
        int from = 0;
        for (int i = 1; i < s.size(); i++) {
            while (from < i - 1 && s.nanos()[i] - s.nanos()[from + 1] >= 1_000_000_000L) {
                from++;
            }
            long nanos = s.nanos()[i] - s.nanos()[from];
            rates[i] = nanos <= 0 ? 0 : (s.done()[i] - s.done()[from]) * 1e9 / nanos;
        }
        if (rates.length > 1) {
            rates[0] = rates[1];
        }
        return rates;
    }

    static String throughput(Timeline.Series s) {
        double[] rates = rates(s);
        double seconds = Math.max(1e-3, s.nanos()[s.size() - 1] / 1e9);
        double max = 1;
        for (double r : rates) {
            max = Math.max(max, r);
        }
        double total = s.done()[s.size() - 1] - s.done()[0];
        double mean = total / seconds;
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < s.size(); i++) {
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", s.nanos()[i] / 1e9 / seconds * WIDTH,
                    HEIGHT - rates[i] / max * HEIGHT));
        }
        StringBuilder svg = open();
        svg.append("<polyline fill=\"none\" stroke=\"#4a7bd0\" stroke-width=\"2\" points=\"")
                .append(points.toString().trim())
                .append("\"/>");
        double y = HEIGHT - mean / max * HEIGHT;
        svg.append(String.format(Locale.ROOT, "<line x1=\"0\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d0804a\" "
                + "stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">"
                + "mean %.0f msg/s"
                + "</text>", y, WIDTH, y, WIDTH, Math.max(12, y - 2), mean));
        svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"12\" font-size=\"11\">%.0f msg/s</text>", max));
        axis(svg, seconds, "s");
        return svg.append("</svg>").toString();
    }

    static String heap(Timeline.Series s) {
        long first = s.done()[0];
        double span = Math.max(1, s.done()[s.size() - 1] - first);
        double max = 1;
        for (long h : s.heapBytes()) {
            max = Math.max(max, h / MB);
        }
        StringBuilder points = new StringBuilder();
        StringBuilder collections = new StringBuilder();
        for (int i = 0; i < s.size(); i++) {
            double x = (s.done()[i] - first) / span * WIDTH;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, HEIGHT - s.heapBytes()[i] / MB / max * HEIGHT));
            if (i > 0 && s.gcCount()[i] > s.gcCount()[i - 1]) {
                collections.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                        + "stroke=\"#d0804a\"><title>%d collection(s)</title></line>", x, HEIGHT, x, HEIGHT - 8,
                        s.gcCount()[i] - s.gcCount()[i - 1]));
            }
        }
        StringBuilder svg = open();
        svg.append("<polyline fill=\"none\" stroke=\"#4a7bd0\" stroke-width=\"2\" points=\"")
                .append(points.toString().trim())
                .append("\"/>").append(collections);
        svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"12\" font-size=\"11\">%.0f MiB; %d collection(s) "
                + "(orange ticks)</text>", max, s.gcCount()[s.size() - 1] - s.gcCount()[0]));
        axis(svg, span, "messages");
        return svg.append("</svg>").toString();
    }

    private static StringBuilder open() {
        return new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">", WIDTH, HEIGHT + 20));
    }

    private static void axis(StringBuilder svg, double span, String unit) {
        for (int t = 0; t <= 4; t++) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s %s</text>",
                    t / 4.0 * (WIDTH - 80), HEIGHT + 15, number(t / 4.0 * span), unit));
        }
    }

    private static String number(double v) {
        return String.format(Locale.ROOT, v >= 100 || v == Math.rint(v) ? "%.0f" : "%.1f", v);
    }
}
