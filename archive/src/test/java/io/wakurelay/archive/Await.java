package io.wakurelay.archive;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition that another thread makes true; fails with {@code what} after the timeout. */
final class Await {
    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(30), condition);
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }
}
