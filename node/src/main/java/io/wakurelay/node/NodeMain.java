package io.wakurelay.node;

import io.wakurelay.node.logging.LogLevels;
import io.wakurelay.node.logging.UncaughtExceptions;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.ConfigSources;
import io.wakurelay.node.config.NodeOptions;
import io.wakurelay.node.config.NwakuConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * {@code java -jar wakurelay-node.jar [options]}. Invalid configuration exits with code 2 and a message
 * before any port is opened; a start that fails exits with code 1 and one line naming what to change
 * ({@link StartFailures}), the stack trace at DEBUG; SIGTERM and SIGINT shut the node down gracefully.
 */
public final class NodeMain {
    /** Exit code for bad configuration (as picocli uses for usage errors). */
    public static final int EXIT_CONFIG = 2;
    /** Exit code when the node could not start (a port in use, an unreadable data dir, ...). */
    public static final int EXIT_START = 1;

    private NodeMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv()));
    }

    static int run(String[] args, Map<String, String> environment) {
        NodeConfig config;
        List<String> warnings = new ArrayList<>();
        try {
            Parsed parsed = parseOptions(args, environment, warnings::add);
            if (parsed == null) {
                return 0; // --help or --version
            }
            // logging first: building the configuration may log (a node key created), and with --log-format JSON
            // every line, the first included, must be JSON
            LogLevels.set(parsed.options().parsedLogLevel());
            parsed.options().parsedLogFormat().apply();
            UncaughtExceptions.logThem();
            config = toConfig(parsed, environment, warnings::add);
        } catch (ConfigurationException | IllegalArgumentException e) {
            System.err.println("wakurelay-node: " + e.getMessage());
            System.err.println("Run with --help to see every option and its default.");
            return EXIT_CONFIG;
        }
        Logger log = LoggerFactory.getLogger(NodeMain.class);
        warnings.forEach(log::warn);
        WakuNode node;
        try {
            node = WakuNode.start(config);
        } catch (RuntimeException e) {
            // a port in use, a database down, a directory not writable: the operator's to change, not a bug
            log.error("node failed to start: {}", StartFailures.describe(e));
            log.debug("node failed to start", e);
            return EXIT_START;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** @return the configuration, or null when --help or --version was answered; warnings are logged */
    public static NodeConfig parse(String[] args, Map<String, String> environment) {
        return parse(args, environment, LoggerFactory.getLogger(NodeMain.class)::warn);
    }

    /** @param warnings told what the node will start despite (config file keys it ignores) */
    static NodeConfig parse(String[] args, Map<String, String> environment, Consumer<String> warnings) {
        Parsed parsed = parseOptions(args, environment, warnings);
        return parsed == null ? null : toConfig(parsed, environment, warnings);
    }

    /** The options parsed from the command line, over the environment and the file of {@code sources}. */
    private record Parsed(NodeOptions options, ConfigSources sources, String[] args) {
        /** {@code message} with where each option it names came from, when not from the command line. */
        String withOrigins(String message) {
            return sources.withOrigins(message, option -> givenOnCommandLine(args, option));
        }
    }

    private static NodeConfig toConfig(Parsed parsed, Map<String, String> environment, Consumer<String> warnings) {
        try {
            return parsed.options().toConfig(environment, warnings);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new ConfigurationException(parsed.withOrigins(e.getMessage()), e);
        }
    }

    /** The options as given, parsed but not yet built into a configuration; null when --help or --version was answered. */
    private static Parsed parseOptions(String[] args, Map<String, String> environment, Consumer<String> warnings) {
        NodeOptions options = new NodeOptions();
        ConfigSources sources = null;
        try {
            Path file = ConfigSources.configFileArgument(args, environment);
            sources = ConfigSources.of(environment, file);
            CommandLine cli = NodeOptions.commandLine(options, sources);
            checkFileKeys(cli, sources, file, warnings);
            // WAKURELAY_* and nwaku's WAKUNODE2_* variables that this node does not read, said once
            ConfigSources.EnvironmentReport environmentReport = sources.environmentReport(
                    cli.getCommandSpec().options().stream().map(o -> o.longestName().replaceFirst("^--", "")).toList());
            if (!environmentReport.refused().isEmpty()) {
                throw new ConfigurationException("environment: this node does not support "
                        + String.join(", ", environmentReport.refused())
                        + "; unset the variable(s) or set them off to start without");
            }
            environmentReport.warnings().forEach(warnings);
            cli.parseArgs(args);
            if (!cli.getUnmatchedArguments().isEmpty()) {
                // picocli lets them pass beside --help; a misspelt flag is an error whatever else is given
                throw new CommandLine.UnmatchedArgumentException(cli, cli.getUnmatchedArguments());
            }
            if (cli.isUsageHelpRequested()) {
                cli.usage(System.out);
                return null;
            }
            if (cli.isVersionHelpRequested()) {
                cli.printVersionHelp(System.out);
                return null;
            }
            return new Parsed(options, sources, args);
        } catch (CommandLine.ParameterException e) {
            String message = e.getMessage();
            if (sources != null && e.getArgSpec() instanceof CommandLine.Model.OptionSpec option
                    && !givenOnCommandLine(args, option.longestName())) {
                ConfigSources.Origin origin = sources.origin(option.longestName());
                message = origin == null ? message : message + " (from " + origin.where() + ")";
            }
            throw new ConfigurationException(message, e);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
    }

    /**
     * An nwaku config file names options this node does not have: one that only tunes nwaku is ignored and said once;
     * one that turns on what this node cannot do (store sync, mix, ...) stops the start, and so does a key that is no
     * option of this node's or nwaku's (a misspelling, most likely: the closest option is suggested).
     */
    private static void checkFileKeys(CommandLine cli, ConfigSources sources, Path file, Consumer<String> warnings) {
        NwakuConfigKeys.Sorted unsupported = sources.unsupportedFileKeys(
                key -> cli.getCommandSpec().findOption("--" + key) != null);
        if (!unsupported.unknown().isEmpty()) {
            List<String> names = cli.getCommandSpec().options().stream()
                    .map(o -> o.longestName().replaceFirst("^--", "")).toList();
            throw new ConfigurationException("config file " + file + ": " + String.join(", ",
                    unsupported.unknown().stream().map(key -> ConfigSources.unknownKey(key, names)).toList())
                    + " is no option of this node's or nwaku's; fix or remove the key(s)");
        }
        if (!unsupported.refused().isEmpty()) {
            throw new ConfigurationException("config file " + file + ": this node does not support "
                    + String.join(", ", unsupported.refused()) + "; remove the key(s) or set them off to start without");
        }
        if (!unsupported.ignored().isEmpty()) {
            warnings.accept("config file " + file + ": ignoring " + unsupported.ignored().size()
                    + " key(s) this node has no option for: " + String.join(", ", unsupported.ignored()));
        }
    }

    /** Whether {@code option} (e.g. {@code --tcp-port}) is among the command-line arguments. */
    private static boolean givenOnCommandLine(String[] args, String option) {
        for (String arg : args) {
            if (arg.equals(option) || arg.startsWith(option + "=")) {
                return true;
            }
        }
        return false;
    }

    /** A configuration the node refuses to start with. */
    static final class ConfigurationException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConfigurationException(String message) {
            super(message);
        }

        ConfigurationException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
