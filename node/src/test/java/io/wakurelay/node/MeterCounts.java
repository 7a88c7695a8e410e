package io.wakurelay.node;

import io.micrometer.core.instrument.MeterRegistry;

/** Counters of a node's registry read in tests: absent is 0, and a name's other labels are summed over. */
final class MeterCounts {
    private MeterCounts() {
    }

    static double count(MeterRegistry m, String name) {
        var c = m.find(name).counter();
        return c == null ? 0 : c.count();
    }

    /** Summed over the other labels (the host's counters also have a {@code transport} label). */
    static double count(MeterRegistry m, String name, String tag, String value) {
        return m.find(name).tag(tag, value).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    /** Sum of the counters of {@code name} whose {@code tag} is (or, with {@code equal} false, is not) {@code value}. */
    static double sum(MeterRegistry m, String name, String tag, String value, boolean equal) {
        return m.find(name).counters().stream().filter(c -> value.equals(c.getId().getTag(tag)) == equal).mapToDouble(c -> c.count()).sum();
    }
}
