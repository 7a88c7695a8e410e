package io.wakurelay.node.config;

import java.util.Locale;

/** Parses and writes sizes such as {@code 153600}, {@code 150KiB}, {@code 64MiB} or {@code 1GB} (KB = 1000, KiB = 1024). */
public final class ByteSize {
    private ByteSize() {
    }

    /** @throws IllegalArgumentException saying what is wrong */
    public static long parse(String text) {
        String s = text.trim();
        int split = 0;
        while (split < s.length() && Character.isDigit(s.charAt(split))) {
            split++;
        }
        if (split == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a size: expected a number of bytes, optionally followed by KB, KiB, MB, MiB, GB or GiB");
        }
        long number;
        try {
            number = Long.parseLong(s.substring(0, split));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large a size", e);
        }
        long unit = switch (s.substring(split).trim().toUpperCase(Locale.ROOT)) {
            case "", "B" -> 1L;
            case "KB" -> 1_000L;
            case "KIB" -> 1L << 10;
            case "MB" -> 1_000_000L;
            case "MIB" -> 1L << 20;
            case "GB" -> 1_000_000_000L;
            case "GIB" -> 1L << 30;
            default -> throw new IllegalArgumentException("'" + text + "' has an unknown unit: use KB, KiB, MB, MiB, GB or GiB");
        };
        if (number > Long.MAX_VALUE / unit) {
            throw new IllegalArgumentException("'" + text + "' is too large a size");
        }
        return number * unit;
    }

    /** The shortest exact form in binary units ({@code 153600} is {@code 150KiB}), as {@link #parse} reads it back. */
    public static String format(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + "GiB";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + "MiB";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return bytes / (1L << 10) + "KiB";
        }
        return Long.toString(bytes);
    }
}
