package io.wakurelay.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A payload-size mix such as {@code 10000:25,50000:50,150000:25} (bytes:percent, percents adding up to
 * 100), and the seeded sequence of sizes it produces. The same seed and mix always give the same sizes in
 * the same order, on every JVM.
 */
public record PayloadMix(List<Entry> entries) {
    public static final String DEFAULT_SPEC = "10000:25,50000:50,150000:25";
    public static final long DEFAULT_SEED = 42;

    public record Entry(int bytes, int percent) {
        public Entry {
            if (bytes < 0) {
                throw new IllegalArgumentException("payload size must not be negative, was " + bytes);
            }
            if (percent < 1 || percent > 100) {
                throw new IllegalArgumentException("percent must be 1..100, was " + percent);
            }
        }
    }

    public PayloadMix {
        entries = List.copyOf(entries);
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a payload mix needs at least one size");
        }
        int sum = entries.stream().mapToInt(Entry::percent).sum();
        if (sum != 100) {
            throw new IllegalArgumentException("payload mix percents must add up to 100, they add up to " + sum);
        }
    }

    public static PayloadMix defaultMix() {
        return parse(DEFAULT_SPEC);
    }

    /** @throws IllegalArgumentException saying which part of the text is wrong */
    public static PayloadMix parse(String spec) {
        List<Entry> entries = new ArrayList<>();
        for (String part : spec.split(",")) {
            String[] kv = part.trim().split(":");
            if (kv.length != 2) {
                throw new IllegalArgumentException("payload mix part '" + part + "' is not bytes:percent");
            }
            try {
                entries.add(new Entry(Integer.parseInt(kv[0].trim()), Integer.parseInt(kv[1].trim())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("payload mix part '" + part + "' is not bytes:percent", e);
            }
        }
        return new PayloadMix(entries);
    }

    /** The next {@code count} payload sizes drawn for {@code seed}. */
    public int[] sizes(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] sizes = new int[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = pick(random.nextInt(100));
        }
        return sizes;
    }

    private int pick(int roll) {
        int cumulative = 0;
        for (Entry e : entries) {
            cumulative += e.percent();
            if (roll < cumulative) {
                return e.bytes();
            }
        }
        throw new AssertionError("percents add up to 100");
    }

    public int maxBytes() {
        return entries.stream().mapToInt(Entry::bytes).max().orElseThrow();
    }

    public String spec() {
        StringBuilder b = new StringBuilder();
        for (Entry e : entries) {
            b.append(b.length() == 0 ? "" : ",").append(e.bytes()).append(':').append(e.percent());
        }
        return b.toString();
    }
}
