package io.wakurelay.loadgen;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a process's CPU goes, by thread: the user and system time of each of its threads as Linux's
 * {@code /proc/<pid>/task/<tid>/stat} counts it, summed over the threads of one pool
 * ({@code wakurelay-p2p-e} for every event loop, {@code GC Thread#N}). Unlike a Java profiler it sees the native
 * threads too (RocksDB's flushes and compactions, {@code rocksdb:low}), so that the CPU a message costs can be split
 * between the receive path, the archive, the collector and the compiler. Linux names a thread by its first 15
 * characters. Time of threads that ended between two snapshots is in the process's total only
 * ({@link #ENDED_THREADS}). Elsewhere than on Linux the snapshots are empty.
 */
final class ThreadCpu {
    /** The process's own time not accounted to a thread still alive at the second snapshot. */
    static final String ENDED_THREADS = "(threads that ended)";
    /** The kernel's clock tick for these fields (USER_HZ, 100 on every Linux ABI the JVM runs on). */
    private static final long NANOS_PER_TICK = 10_000_000L;
    private static final String TOTAL = "(process)";
    // fields after the ")" that ends the thread's name: state is 1, utime 12 and stime 13 (the stat file's 14 and 15)
    private static final int UTIME_AFTER_NAME = 12;
    private static final int STIME_AFTER_NAME = 13;

    private ThreadCpu() {
    }

    /** CPU nanoseconds by thread group, and the process's total under {@value #TOTAL}; empty when /proc cannot be read. */
    static Map<String, Long> snapshot(long pid) {
        Map<String, Long> byGroup = new TreeMap<>();
        Path proc = Path.of("/proc", Long.toString(pid));
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
            for (Path task : tasks) {
                Sample s = read(task.resolve("stat"));
                if (s != null) {
                    byGroup.merge(group(s.name), s.nanos, Long::sum);
                }
            }
            Sample total = read(proc.resolve("stat"));
            if (total == null) {
                return Map.of();
            }
            byGroup.put(TOTAL, total.nanos);
        } catch (IOException e) {
            return Map.of();
        }
        return byGroup;
    }

    /**
     * Microseconds of CPU per message by thread group between two snapshots, largest first, groups under 1 µs left
     * out; the time of threads that ended in between under {@link #ENDED_THREADS}.
     */
    static Map<String, Double> microsPerMessage(Map<String, Long> before, Map<String, Long> after, long messages) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (before.isEmpty() || after.isEmpty() || messages <= 0) {
            return out;
        }
        long accounted = 0;
        Map<String, Long> deltas = new TreeMap<>();
        for (Map.Entry<String, Long> e : after.entrySet()) {
            if (!e.getKey().equals(TOTAL)) {
                long delta = Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
                deltas.put(e.getKey(), delta);
                accounted += delta;
            }
        }
        long total = after.get(TOTAL) - before.get(TOTAL);
        deltas.put(ENDED_THREADS, Math.max(0, total - accounted));
        deltas.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .filter(e -> e.getValue() / 1_000.0 / messages >= 1)
                .forEach(e -> out.put(e.getKey(), Math.round(e.getValue() / 100.0 / messages) / 10.0));
        return out;
    }

    /**
     * A thread's name with the number a pool gives it (digits at the end or before a "-") as {@code N}, so that pools
     * count as one; digits inside a word stay ({@code wakurelay-p2p-e}, {@code C2 CompilerThre}).
     */
    static String group(String threadName) {
        return threadName.replaceAll("[0-9]+(?=$|-)", "N");
    }

    record Sample(String name, long nanos) {
    }

    /** One stat file; null when the thread ended meanwhile. */
    private static Sample read(Path stat) throws IOException {
        String line;
        try {
            line = Files.readString(stat);
        } catch (NoSuchFileException e) {
            return null;
        }
        return parse(line);
    }

    /** The name (between the first "(" and the last ")", as it may hold both) and the user + system time. */
    static Sample parse(String statLine) {
        int open = statLine.indexOf('(');
        int close = statLine.lastIndexOf(')');
        if (open < 0 || close < open) {
            return null;
        }
        String[] fields = statLine.substring(close + 2).trim().split(" ");
        if (fields.length <= STIME_AFTER_NAME) {
            return null;
        }
        long ticks = Long.parseLong(fields[UTIME_AFTER_NAME - 1]) + Long.parseLong(fields[STIME_AFTER_NAME - 1]);
        return new Sample(statLine.substring(open + 1, close), ticks * NANOS_PER_TICK);
    }
}
