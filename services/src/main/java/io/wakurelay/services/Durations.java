package io.wakurelay.services;

import java.time.Duration;

/** Validation shared by the configs. */
final class Durations {
    private Durations() {
    }

    static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
