package io.wakurelay.relay;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes. */
final class Eventually {
    private Eventually() {
    }

    static void until(BooleanSupplier condition) {
        until(condition, Duration.ofSeconds(20), () -> "");
    }

    static void until(BooleanSupplier condition, Duration timeout, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout + " " + state.get());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
    }
}
