package io.wakurelay.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a short command to its end (at most ten minutes) and returns its output; a failure quotes it. */
final class Processes {
    private Processes() {
    }

    static String run(List<String> command, Map<String, String> env, String what) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(what + " did not finish in ten minutes");
            }
            String text = new String(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(what + " failed (exit " + process.exitValue() + "): " + String.join(" ", command)
                        + "\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException(what + " could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + what, e);
        }
    }
}
