package io.wakurelay.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * A wall clock for a child process, moved while it runs: Debian's libfaketime preloaded into the process
 * ({@link #environment()}), reading its offset from a file this class rewrites. The process sees the real wall clock
 * plus the offset, and real monotonic time ({@code System.nanoTime} in a JVM, so its timers and timeouts run as
 * usual); only its wall clock ({@code Instant.now}, {@code System.currentTimeMillis}) is moved.
 *
 * <pre>{@code
 * FakeTime clock = FakeTime.at(dir, vectorNowNanos);               // before the process starts
 * NodeProcess node = NodeProcess.start(jvm, args, clock.environment(), timeout, log);
 * clock.moveTo(laterNanos);                                        // returns once the process reads the new offset
 * }</pre>
 *
 * <p>libfaketime reads the file again when its cache is more than {@code FAKETIME_CACHE_DURATION} (1) whole seconds
 * old (it compares whole seconds of the real clock), so a new offset takes effect within 2 s of being written, at the
 * next clock read after that: {@link #moveTo} waits {@link #TAKES_EFFECT}. {@code FAKETIME_NO_CACHE} is not used: it
 * would make every clock read of the process a file read. Offsets are written in seconds with millisecond fractions,
 * which libfaketime reads with {@code atof}. Installed by {@code interop/install.sh} (Debian's {@code faketime}).
 */
public final class FakeTime {
    /** Debian's preload library (package {@code libfaketime}, which {@code faketime} depends on). */
    public static final Path LIBRARY = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
    /** How long a new offset may take to reach the process: libfaketime's whole-second cache of 1 s, and a margin. */
    public static final Duration TAKES_EFFECT = Duration.ofMillis(2_500);

    private final Path file;
    private volatile long offsetNanos;

    private FakeTime(Path file) {
        this.file = file;
    }

    /**
     * A clock that reads {@code unixNanos} now and runs on from there at the real pace, its offset in a file in
     * {@code dir}. Fails the test when libfaketime is not installed.
     */
    public static FakeTime at(Path dir, long unixNanos) {
        if (!Files.isReadable(LIBRARY)) {
            fail("no " + LIBRARY + ": Debian's faketime is needed (bash interop/install.sh installs it)");
        }
        FakeTime clock = new FakeTime(dir.resolve("faketime-offset"));
        clock.write(unixNanos);
        return clock;
    }

    /** The variables that make a child process read this clock; add them to its environment. */
    public Map<String, String> environment() {
        return Map.of("LD_PRELOAD", LIBRARY.toString(), "FAKETIME_TIMESTAMP_FILE", file.toString(),
                "FAKETIME_CACHE_DURATION", "1", "FAKETIME_DONT_FAKE_MONOTONIC", "1",
                // libfaketime 0.9.10 on glibc 2.30 or later otherwise applies its "monotonic fix" to every timed wait
                // of the process: measured here, a JVM then spends 5 to 8 times the CPU (75,938 futex calls instead of
                // 1,561 for `--version`) and a node took a minute to start. With monotonic time not faked the fix has
                // nothing to fix: a wait on a monotonic condition variable keeps its deadline either way.
                "FAKETIME_FORCE_MONOTONIC_FIX", "0");
    }

    /**
     * Moves the clock so that it reads {@code unixNanos} once the process has read the new offset, and returns then:
     * {@link #TAKES_EFFECT} after writing it.
     */
    public void moveTo(long unixNanos) {
        write(unixNanos - TAKES_EFFECT.toNanos()); // what it reads now: it reads unixNanos when the wait is over
        try {
            Thread.sleep(TAKES_EFFECT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while the clock moved");
        }
    }

    /** What the process's wall clock reads now, in Unix nanoseconds (to within a millisecond). */
    public long nowNanos() {
        return realNanos() + offsetNanos;
    }

    private void write(long unixNanos) {
        long offset = unixNanos - realNanos();
        String text = String.format(Locale.ROOT, "%+.3f%n", offset / 1e9);
        try {
            Path next = file.resolveSibling(file.getFileName() + ".next");
            Files.writeString(next, text, StandardCharsets.US_ASCII);
            // renamed into place: libfaketime never reads half a line
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        offsetNanos = Math.round(Double.parseDouble(text.strip()) * 1e3) * 1_000_000L;
    }

    private static long realNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public String toString() {
        return "faketime " + file + " (offset " + offsetNanos / 1_000_000 + " ms)";
    }
}
