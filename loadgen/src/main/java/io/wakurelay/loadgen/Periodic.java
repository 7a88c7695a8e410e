package io.wakurelay.loadgen;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs an action every {@code interval}, first one interval after it is made (from the end of one run to the start
 * of the next), on a daemon thread of its own, until closed. An action that throws is remembered and run again at the next tick.
 */
final class Periodic implements AutoCloseable {
    private final ScheduledExecutorService executor;
    private volatile RuntimeException lastFailure;

    Periodic(String threadName, Duration interval, Runnable action) {
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                action.run();
            } catch (RuntimeException e) {
                lastFailure = e; // a throwing action would otherwise cancel every later run
            }
        }, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The last error the action threw, or null. */
    RuntimeException lastFailure() {
        return lastFailure;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
