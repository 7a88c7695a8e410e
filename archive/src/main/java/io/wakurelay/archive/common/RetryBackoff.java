package io.wakurelay.archive.common;

import java.time.Duration;

/** Exponential delays between attempts to commit a batch the store refused: 50 ms, 100 ms, ... at most 5 s. */
public final class RetryBackoff {
    public static final Duration INITIAL = Duration.ofMillis(50);
    public static final Duration MAX = Duration.ofSeconds(5);

    private RetryBackoff() {
    }

    /** @param failures consecutive failed attempts so far, at least 1 */
    public static long delayNanos(int failures) {
        int doublings = Math.min(failures - 1, 20);
        return Math.min(MAX.toNanos(), INITIAL.toNanos() << doublings);
    }
}
