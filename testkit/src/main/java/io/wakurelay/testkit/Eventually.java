package io.wakurelay.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a condition that another thread makes true, until it holds or a deadline passes; the one poller of every
 * module's tests. The deadline only bounds how long a failing test waits: a passing one returns as soon as the
 * condition holds.
 */
public final class Eventually {
    /** The deadline when a test names none. */
    public static final Duration WAIT = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 10;

    private Eventually() {
    }

    public static void until(BooleanSupplier condition) {
        until(condition, WAIT, () -> "");
    }

    public static void until(BooleanSupplier condition, Duration timeout) {
        until(condition, timeout, () -> "");
    }

    /** @param what the condition in words, for the failure */
    public static void until(String what, BooleanSupplier condition) {
        until(condition, WAIT, () -> what);
    }

    /** @param what the condition in words, for the failure */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(condition, timeout, () -> what);
    }

    /** @param state what the failure reports besides the timeout (the state the condition looked at) */
    public static void until(BooleanSupplier condition, Supplier<String> state) {
        until(condition, WAIT, state);
    }

    /** @param state what the failure reports besides the timeout (the state the condition looked at) */
    public static void until(BooleanSupplier condition, Duration timeout, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout + ": " + state.get());
            }
            sleep();
        }
    }

    /** Asserts that {@code condition} holds throughout {@code period}. */
    public static void holdsFor(Duration period, BooleanSupplier condition, Supplier<String> state) {
        long end = System.nanoTime() + period.toNanos();
        while (System.nanoTime() < end) {
            if (!condition.getAsBoolean()) {
                throw new AssertionError("condition broke within " + period + ": " + state.get());
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling", e);
        }
    }
}
