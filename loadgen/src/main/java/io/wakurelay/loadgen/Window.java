package io.wakurelay.loadgen;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * At most a window of messages (and payload bytes) sent and not yet confirmed by the receiver, and optionally
 * at most a rate. This is how the load generator goes as fast as the receiver's backpressure allows without
 * overrunning a relay's per-peer queue, which answers overload with counted drops rather than by waiting.
 */
final class Window {
    /** Below the relay's default per-peer queue (4 MiB), so a full window never turns into drops. */
    static final int DEFAULT_MESSAGES = 128;
    static final long DEFAULT_BYTES = 3L << 20;
    private static final int UNIT = 1024;

    private final Semaphore messages;
    private final Semaphore kilobytes;
    private final double ratePerSecond;
    private long nextSendNanos = System.nanoTime();

    Window(int maxMessages, long maxBytes, double ratePerSecond) {
        this.messages = new Semaphore(maxMessages);
        this.kilobytes = new Semaphore((int) Math.max(1, maxBytes / UNIT));
        this.ratePerSecond = ratePerSecond;
    }

    static Window standard(double ratePerSecond) {
        return new Window(DEFAULT_MESSAGES, DEFAULT_BYTES, ratePerSecond);
    }

    /** Blocks the sending thread until a message of {@code bytes} may go. */
    void acquire(int bytes, Duration timeout) {
        take(messages, 1, timeout);
        take(kilobytes, units(bytes), timeout);
        if (ratePerSecond > 0) {
            long wait = nextSendNanos - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            // never bank more than a second of credit after a pause
            nextSendNanos = Math.max(nextSendNanos, System.nanoTime() - 1_000_000_000L) + (long) (1e9 / ratePerSecond);
        }
    }

    /** The receiver has it: its place is free again. */
    void release(int bytes) {
        kilobytes.release(units(bytes));
        messages.release();
    }

    private static int units(int bytes) {
        return Math.max(1, (bytes + UNIT - 1) / UNIT);
    }

    private static void take(Semaphore s, int permits, Duration timeout) {
        try {
            if (!s.tryAcquire(permits, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the receiver confirmed nothing for " + timeout + "; giving up");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
