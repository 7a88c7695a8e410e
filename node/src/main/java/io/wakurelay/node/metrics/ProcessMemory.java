package io.wakurelay.node.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resident, peak resident and virtual memory and the open files of this process, from /proc (Linux); -1 elsewhere. */
public final class ProcessMemory {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path FDS = Path.of("/proc/self/fd");

    private ProcessMemory() {
    }

    public static long residentBytes() {
        return field("VmRSS:");
    }

    /** Peak resident set size (VmHWM). */
    public static long peakResidentBytes() {
        return field("VmHWM:");
    }

    /** Virtual memory size (VmSize). */
    public static long virtualBytes() {
        return field("VmSize:");
    }

    /** Open file descriptors: the entries of /proc/self/fd (the directory's own, read to count them, included). */
    public static long openFileDescriptors() {
        try (var entries = Files.list(FDS)) {
            return entries.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long field(String name) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(name)) {
                    String[] parts = line.substring(name.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
