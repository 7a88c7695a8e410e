package io.wakurelay.loadgen;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Prints progress to stderr every two seconds for runs that take a while; silent for short runs. */
public final class Progress implements AutoCloseable {
    private static final Duration INTERVAL = Duration.ofSeconds(2);

    private final Periodic printing;

    public Progress(String label, long total, LongSupplier done, PrintStream err) {
        long start = System.nanoTime();
        AtomicLong last = new AtomicLong();
        printing = new Periodic("progress", INTERVAL, () -> {
            long n = done.getAsLong();
            double seconds = (System.nanoTime() - start) / 1e9;
            err.printf(Locale.ROOT, "%s: %d/%d (%.0f%%), %.0f msg/s over the last 2 s, %.1f s elapsed%n",
                    label, n, total, 100.0 * n / total, (n - last.getAndSet(n)) / 2.0, seconds);
        });
    }

    @Override
    public void close() {
        printing.close();
    }
}
