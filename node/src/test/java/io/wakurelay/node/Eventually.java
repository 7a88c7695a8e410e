package io.wakurelay.node;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a generous deadline passes. */
final class Eventually {
    private Eventually() {
    }

    static void until(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
