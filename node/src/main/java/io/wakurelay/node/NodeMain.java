package io.wakurelay.node;

import io.wakurelay.node.logging.LogLevels;
import io.wakurelay.node.logging.UncaughtExceptions;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.ConfigSources;
import io.wakurelay.node.config.NodeOptions;
import io.wakurelay.node.config.NwakuConfigKeys;
import io.wakurelay.p2p.ListenFailedException;
import io.wakurelay.p2p.connection.Transport;
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
 * before any port is opened; SIGTERM and SIGINT shut the node down gracefully.
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
            NodeOptions options = parseOptions(args, environment, warnings::add);
            if (options == null) {
                return 0; // --help or --version
            }
            // logging first: building the configuration may log (a node key created), and with --log-format JSON
            // every line, the first included, must be JSON
            LogLevels.set(options.parsedLogLevel());
            options.parsedLogFormat().apply();
            UncaughtExceptions.logThem();
            config = toConfig(options, environment, warnings::add);
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
        } catch (ListenFailedException e) {
            // a port in use is the operator's to change, not a bug: the setting to change, and no stack trace
            String flag = e.transport() == Transport.TCP ? "--tcp-port" : "--websocket-port";
            log.error("node failed to start: {}; choose another port with {} (or --ports-shift), or stop what uses it",
                    e.getMessage(), flag);
            return EXIT_START;
        } catch (RuntimeException e) {
            log.error("node failed to start: {}", e.getMessage(), e);
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
        NodeOptions options = parseOptions(args, environment, warnings);
        return options == null ? null : toConfig(options, environment, warnings);
    }

    private static NodeConfig toConfig(NodeOptions options, Map<String, String> environment, Consumer<String> warnings) {
        try {
            return options.toConfig(environment, warnings);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
    }

    /** The options as given, parsed but not yet built into a configuration; null when --help or --version was answered. */
    private static NodeOptions parseOptions(String[] args, Map<String, String> environment, Consumer<String> warnings) {
        NodeOptions options = new NodeOptions();
        try {
            Path file = ConfigSources.configFileArgument(args, environment);
            ConfigSources sources = ConfigSources.of(environment, file);
            CommandLine cli = NodeOptions.commandLine(options, sources);
            // an nwaku config file names options this node does not have: one that only tunes nwaku is ignored and
            // said once; one that turns on what this node cannot do (RLN, store sync, ...) stops the start
            NwakuConfigKeys.Sorted unsupported = sources.unsupportedFileKeys(
                    key -> cli.getCommandSpec().findOption("--" + key) != null);
            List<String> refused = unsupported.refused();
            List<String> ignored = new ArrayList<>(unsupported.ignored());
            ignored.addAll(unsupported.unknown());
            if (!refused.isEmpty()) {
                throw new ConfigurationException("config file " + file + ": this node does not support "
                        + String.join(", ", refused) + "; remove the key(s) or set them off to start without");
            }
            if (!ignored.isEmpty()) {
                warnings.accept("config file " + file + ": ignoring " + ignored.size() + " key(s) this node has no option for: "
                        + String.join(", ", ignored));
            }
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
            if (cli.isUsageHelpRequested()) {
                cli.usage(System.out);
                return null;
            }
            if (cli.isVersionHelpRequested()) {
                cli.printVersionHelp(System.out);
                return null;
            }
            return options;
        } catch (CommandLine.ParameterException | IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
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
