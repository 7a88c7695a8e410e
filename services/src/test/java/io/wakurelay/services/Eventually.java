package io.wakurelay.services;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes. */
final class Eventually {
    static final Duration WAIT = Duration.ofSeconds(20);

    private Eventually() {
    }

    static void until(BooleanSupplier condition, Supplier<String> state) {
        until(condition, WAIT, state);
    }

    static void until(BooleanSupplier condition, Duration timeout, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout + ": " + state.get());
            }
            sleep(20);
        }
    }

    /** Asserts that {@code condition} holds throughout {@code period}. */
    static void holdsFor(Duration period, BooleanSupplier condition, Supplier<String> state) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() < end) {
            if (!condition.getAsBoolean()) {
                throw new AssertionError("condition broke within " + period + ": " + state.get());
            }
            sleep(20);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
