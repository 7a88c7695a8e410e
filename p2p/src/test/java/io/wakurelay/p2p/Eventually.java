package io.wakurelay.p2p;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes. */
final class Eventually {
    private Eventually() {
    }

    static void until(BooleanSupplier condition) {
        until(condition, Duration.ofSeconds(10));
    }

    static void until(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
    }
}
