package io.wakurelay.services;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A per-peer request rate: at most {@code volume} requests per {@code period}, as a token bucket that holds
 * {@code volume} tokens and refills them evenly over {@code period} (a peer may burst the volume, then sustain the
 * rate). Written as nwaku's {@code --rate-limit} values are: {@code 30/1s}, {@code 30/1m}.
 *
 * @param volume requests per period; 0 means unlimited
 * @param period the refill period; zero means unlimited
 */
public record RateLimit(int volume, Duration period) {
    public static final RateLimit UNLIMITED = new RateLimit(0, Duration.ZERO);
    private static final Pattern TEXT = Pattern.compile("(\\d+)/(\\d+)(ms|s|m|h)");

    public RateLimit {
        Objects.requireNonNull(period, "period");
        if (volume < 0) {
            throw new IllegalArgumentException("a rate limit's volume must not be negative, was " + volume);
        }
        if (period.isNegative()) {
            throw new IllegalArgumentException("a rate limit's period must not be negative, was " + period);
        }
        if ((volume == 0) != period.isZero()) {
            throw new IllegalArgumentException("a rate limit is a volume and a period, both positive, or both 0 for "
                    + "no limit; was " + volume + " per " + period);
        }
    }

    public static RateLimit of(int volume, Duration period) {
        return new RateLimit(volume, period);
    }

    /**
     * Parses {@code <volume>/<period><unit>} with unit {@code ms}, {@code s}, {@code m} or {@code h} (nwaku's form),
     * or {@code none}.
     */
    public static RateLimit parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("none") || t.equals("0/0s")) {
            return UNLIMITED;
        }
        Matcher m = TEXT.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("a rate limit is <volume>/<period><ms|s|m|h> (e.g. 30/1s) or none, was '"
                    + text + "'");
        }
        long amount = Long.parseLong(m.group(2));
        Duration period = switch (m.group(3)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
        return new RateLimit(Integer.parseInt(m.group(1)), period);
    }

    public boolean isUnlimited() {
        return volume == 0;
    }

    @Override
    public String toString() {
        if (isUnlimited()) {
            return "none";
        }
        long ms = period.toMillis();
        if (ms % 3_600_000 == 0) {
            return volume + "/" + ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return volume + "/" + ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return volume + "/" + ms / 1000 + "s";
        }
        return volume + "/" + ms + "ms";
    }
}
