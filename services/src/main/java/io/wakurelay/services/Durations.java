package io.wakurelay.services;

import java.time.Duration;

/** Validation shared by the configs. */
public final class Durations {
    private Durations() {
    }

    public static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
