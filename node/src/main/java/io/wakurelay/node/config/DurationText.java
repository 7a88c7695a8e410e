package io.wakurelay.node.config;

import java.time.Duration;
import java.util.Locale;

/** Parses durations such as {@code 500ms}, {@code 20s}, {@code 2m}, {@code 1h}; a bare number is seconds. */
public final class DurationText {
    private DurationText() {
    }

    /** @throws IllegalArgumentException saying what is wrong */
    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int split = 0;
        while (split < s.length() && Character.isDigit(s.charAt(split))) {
            split++;
        }
        if (split == 0 || split > 12) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: expected a number followed by ms, s, m or h");
        }
        long n = Long.parseLong(s.substring(0, split));
        return switch (s.substring(split)) {
            case "ms" -> Duration.ofMillis(n);
            case "", "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException("'" + text + "' has an unknown unit: use ms, s, m or h");
        };
    }

    public static String format(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        if (s != 0 && s % 3600 == 0) {
            return s / 3600 + "h";
        }
        if (s != 0 && s % 60 == 0) {
            return s / 60 + "m";
        }
        return s + "s";
    }
}
