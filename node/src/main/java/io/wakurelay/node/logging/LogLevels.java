package io.wakurelay.node.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Locale;

/** The node's log level: parsed with nwaku's names too, and set on logback's root logger (at start or over REST). */
public final class LogLevels {
    public static final List<String> NAMES = List.of("TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "ERROR", "FATAL");

    private LogLevels() {
    }

    /**
     * The logback level of {@code text}: TRACE, DEBUG, INFO, WARN, ERROR, or nwaku's NOTICE (INFO) and FATAL (ERROR).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static String parse(String text) {
        String level = text.trim().toUpperCase(Locale.ROOT);
        return switch (level) {
            case "TRACE", "DEBUG", "INFO", "WARN", "ERROR" -> level;
            case "NOTICE" -> "INFO";
            case "FATAL" -> "ERROR";
            default -> throw new IllegalArgumentException("a log level is one of " + String.join(", ", NAMES) + ", was '" + text + "'");
        };
    }

    /** Sets the root logger's level (a no-op when logback is not the logging backend). */
    public static void set(String level) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.toLevel(parse(level)));
        }
    }
}
