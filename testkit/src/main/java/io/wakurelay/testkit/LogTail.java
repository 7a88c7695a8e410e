package io.wakurelay.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a log file, for failure messages. */
final class LogTail {

    private static final int LINES = 40;

    private LogTail() {
    }

    static String of(Path log) {
        try {
            List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
            return "--- last lines of " + log + " ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - LINES), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }
}
