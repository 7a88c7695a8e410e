package io.wakurelay.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a reader needs to judge a figure, stated at the top of every report: the JDK, the CPU, the commit, when, and
 * for the scenarios that replay the seeded mix, the seed, the mix and the counts.
 */
final class RunFacts {
    private RunFacts() {
    }

    /** @param workload the seeded mix replayed; null for the scenarios of one fixed size */
    static Map<String, String> of(Workload workload) {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("JDK", System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"));
        facts.put("CPU", cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " cores seen by the JVM");
        facts.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        facts.put("commit", commit());
        facts.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        if (workload != null) {
            facts.put("seed", String.valueOf(workload.seed()));
            facts.put("mix", workload.mix().spec() + " (payload bytes:percent)");
            facts.put("messages", workload.count() + " measured after " + workload.warmup() + " warm-up");
        }
        return facts;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the architecture is all there is
        }
        return System.getProperty("os.arch");
    }

    /** {@code WAKURELAY_COMMIT}, else what git says of the working directory, else "unknown". */
    private static String commit() {
        String given = System.getenv("WAKURELAY_COMMIT");
        if (given != null && !given.isBlank()) {
            return given.trim();
        }
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
            if (git.waitFor(2, TimeUnit.SECONDS) && git.exitValue() == 0) {
                return new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            git.destroyForcibly();
        } catch (IOException e) {
            // no git here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "unknown";
    }
}
