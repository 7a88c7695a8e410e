package io.wakurelay.loadgen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition (version 0.0.4), read line by line: {@code name{label="value",...} value
 * [timestamp]}, label values with their escapes ({@code \"}, {@code \\}, {@code \n}), comments skipped. Samples are
 * matched by name and by a subset of their labels, in any order, never by a line's prefix.
 */
final class PrometheusText {
    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
        boolean has(Map<String, String> wanted) {
            return labels.entrySet().containsAll(wanted.entrySet());
        }
    }

    private PrometheusText() {
    }

    static List<Sample> parse(String exposition) {
        List<Sample> samples = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            String trimmed = line.strip();
            if (!trimmed.isEmpty() && trimmed.charAt(0) != '#') {
                samples.add(sample(trimmed));
            }
        }
        return samples;
    }

    /** Whether the exposition holds a sample named {@code name}. */
    static boolean has(String exposition, String name) {
        for (Sample s : parse(exposition)) {
            if (s.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The sum of the samples named {@code name} whose labels include {@code labels}; 0 when there are none. */
    static double sum(String exposition, String name, Map<String, String> labels) {
        double total = 0;
        for (Sample s : parse(exposition)) {
            if (s.name().equals(name) && s.has(labels)) {
                total += s.value();
            }
        }
        return total;
    }

    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                String key = line.substring(i, eq).strip();
                StringBuilder value = new StringBuilder();
                int j = eq + 2; // past ="
                for (; line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char next = line.charAt(++j);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                }
                labels.put(key, value.toString());
                i = j + 1;
                if (line.charAt(i) == ',') {
                    i++;
                }
            }
            i++;
        }
        String[] rest = line.substring(i).strip().split(" ");
        return new Sample(name, labels, number(rest[0]));
    }

    private static double number(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text); // "NaN" parses as NaN
        };
    }
}
