package io.wakurelay.archive;

import java.time.Duration;

/** Exponential delays between attempts to commit a batch RocksDB refused: 50 ms, 100 ms, ... at most 5 s. */
final class RetryBackoff {
    static final Duration INITIAL = Duration.ofMillis(50);
    static final Duration MAX = Duration.ofSeconds(5);

    private RetryBackoff() {
    }

    /** @param failures consecutive failed attempts so far, at least 1 */
    static long delayNanos(int failures) {
        int doublings = Math.min(failures - 1, 20);
        return Math.min(MAX.toNanos(), INITIAL.toNanos() << doublings);
    }
}
