package io.wakurelay.node.config;

import io.wakurelay.node.logging.LogFormat;
import io.wakurelay.node.logging.LogLevels;
import picocli.CommandLine.Option;

/** The log's options (nwaku's names), a picocli mixin of {@link NodeOptions}. */
public final class LogOptions {
    @Option(names = "--log-level", paramLabel = "LEVEL",
            description = "TRACE, DEBUG, INFO, WARN or ERROR (nwaku's NOTICE is INFO, FATAL is ERROR)")
    String logLevel;

    @Option(names = "--log-format", paramLabel = "FORMAT",
            description = "TEXT (one line per event) or JSON (one JSON object per line)")
    String logFormat;

    String level() {
        return NodeOptions.option("--log-level", () -> LogLevels.parse(logLevel));
    }

    LogFormat format() {
        return NodeOptions.option("--log-format", () -> LogFormat.parse(logFormat));
    }
}
