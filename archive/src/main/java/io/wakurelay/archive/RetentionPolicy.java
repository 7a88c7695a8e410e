package io.wakurelay.archive;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Which messages the archive deletes, in nwaku's syntax: {@code none}, {@code time:<seconds>} (older than that,
 * by message timestamp), {@code capacity:<count>} (the oldest beyond that many) or {@code size:<n>[B|KB|MB|GB]}
 * (the oldest until the stored message bytes fit; binary units, 1 KB = 1024 bytes, decimals allowed).
 */
public sealed interface RetentionPolicy {

    /** The spec this policy parses from. */
    String spec();

    /** Its kind, {@code none}, {@code time}, {@code capacity} or {@code size}: the {@code policy} tag of the deletion metric. */
    String label();

    /** Keeps everything. */
    record None() implements RetentionPolicy {
        @Override
        public String spec() {
            return "none";
        }

        @Override
        public String label() {
            return "none";
        }
    }

    /** Deletes messages whose timestamp is older than {@code maxAge} before now. */
    record Time(Duration maxAge) implements RetentionPolicy {
        public Time {
            Objects.requireNonNull(maxAge, "maxAge");
            if (maxAge.isNegative() || maxAge.isZero()) {
                throw new IllegalArgumentException("retention time must be positive, was " + maxAge);
            }
        }

        @Override
        public String spec() {
            return "time:" + maxAge.toSeconds();
        }

        @Override
        public String label() {
            return "time";
        }

        /** The timestamp before which messages are deleted at {@code nowNanos} (Unix ns; the earliest one if far back). */
        public long cutoff(long nowNanos) {
            try {
                return Math.subtractExact(nowNanos, maxAge.toNanos());
            } catch (ArithmeticException beyondRange) {
                return Long.MIN_VALUE;
            }
        }
    }

    /** Keeps the newest {@code maxMessages} messages. */
    record Capacity(long maxMessages) implements RetentionPolicy {
        public Capacity {
            if (maxMessages < 1) {
                throw new IllegalArgumentException("retention capacity must be at least 1 message, was " + maxMessages);
            }
        }

        @Override
        public String spec() {
            return "capacity:" + maxMessages;
        }

        @Override
        public String label() {
            return "capacity";
        }
    }

    /** Keeps the newest messages whose stored bytes (the WakuMessage bytes) add up to at most {@code maxBytes}. */
    record Size(long maxBytes) implements RetentionPolicy {
        public Size {
            if (maxBytes < 1) {
                throw new IllegalArgumentException("retention size must be at least 1 byte, was " + maxBytes);
            }
        }

        @Override
        public String spec() {
            return "size:" + maxBytes;
        }

        @Override
        public String label() {
            return "size";
        }
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code spec} */
    static RetentionPolicy parse(String spec) {
        Objects.requireNonNull(spec, "retention policy");
        String text = spec.trim();
        if (text.equalsIgnoreCase("none")) {
            return new None();
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw invalid(spec, "expected none, time:<seconds>, capacity:<count> or size:<n>[B|KB|MB|GB]");
        }
        String kind = text.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = text.substring(colon + 1).trim();
        return switch (kind) {
            case "time" -> new Time(Duration.ofSeconds(positiveLong(spec, value, "a whole number of seconds")));
            case "capacity" -> new Capacity(positiveLong(spec, value, "a whole number of messages"));
            case "size" -> new Size(bytes(spec, value));
            default -> throw invalid(spec, "unknown kind '" + kind + "'; expected none, time, capacity or size");
        };
    }

    private static long positiveLong(String spec, String value, String what) {
        try {
            long n = Long.parseLong(value);
            if (n < 1) {
                throw invalid(spec, "the value must be positive");
            }
            return n;
        } catch (NumberFormatException e) {
            throw invalid(spec, "'" + value + "' is not " + what);
        }
    }

    private static long bytes(String spec, String value) {
        String upper = value.toUpperCase(Locale.ROOT).replace(" ", "");
        long unit = 1;
        String number = upper;
        for (String[] u : new String[][]{{"GB", "1073741824"}, {"MB", "1048576"}, {"KB", "1024"}, {"B", "1"}}) {
            if (upper.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                number = upper.substring(0, upper.length() - u[0].length());
                break;
            }
        }
        try {
            BigDecimal bytes = new BigDecimal(number).multiply(BigDecimal.valueOf(unit));
            if (bytes.signum() <= 0 || bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw invalid(spec, "the size must be positive and fit in 63 bits");
            }
            return bytes.longValue();
        } catch (NumberFormatException e) {
            throw invalid(spec, "'" + value + "' is not a size such as 512MB, 30GB or 1.5GB");
        }
    }

    private static IllegalArgumentException invalid(String spec, String why) {
        return new IllegalArgumentException("invalid retention policy '" + spec + "': " + why);
    }
}
