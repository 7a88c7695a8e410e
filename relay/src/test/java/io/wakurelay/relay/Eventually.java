package io.wakurelay.relay;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition or an assertion until it holds, failing after a generous timeout. */
final class Eventually {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);
    private static final long POLL_MILLIS = 10;

    private Eventually() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT_TIMEOUT, condition);
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            pause();
        }
    }

    /** Retries {@code assertion} until it passes; rethrows its last failure after the timeout. */
    static void asserted(Runnable assertion) {
        asserted(DEFAULT_TIMEOUT, assertion);
    }

    static void asserted(Duration timeout, Runnable assertion) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
