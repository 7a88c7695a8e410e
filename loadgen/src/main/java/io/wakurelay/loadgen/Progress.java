package io.wakurelay.loadgen;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Prints progress to stderr every two seconds for runs that take a while; silent for short runs. */
public final class Progress implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    public Progress(String label, long total, LongSupplier done, PrintStream err) {
        long start = System.nanoTime();
        AtomicLong last = new AtomicLong();
        thread = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    return;
                }
                if (!running) {
                    return;
                }
                long n = done.getAsLong();
                double seconds = (System.nanoTime() - start) / 1e9;
                err.printf(Locale.ROOT, "%s: %d/%d (%.0f%%), %.0f msg/s over the last 2 s, %.1f s elapsed%n",
                        label, n, total, 100.0 * n / total, (n - last.getAndSet(n)) / 2.0, seconds);
            }
        }, "progress");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
