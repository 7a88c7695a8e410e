package io.wakurelay.loadgen;

import io.wakurelay.node.config.NodeVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;

/**
 * {@code java -jar wakurelay-loadgen.jar <scenario> [options]}: prints the CSV header and one row per run on
 * stdout (progress goes to stderr), and optionally the rows as JSON. Each scenario's command stands beside its
 * scenario ({@code MacroCommand} beside {@code MacroScenario}); the options several share are mixins
 * ({@code WorkloadOptions}, {@code OutputOptions}, {@code RelayTrioOptions}).
 */
@Command(name = "wakurelay-loadgen", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, usageHelpWidth = 110,
        versionProvider = LoadgenMain.Version.class,
        subcommands = {MicroCommand.class, MacroCommand.class, FanoutCommand.class, MeshCommand.class, DiscoverCommand.class,
                LatencyCommand.class, ThroughputCommand.class, DriveCommand.class, QueryCommand.class})
public final class LoadgenMain implements Runnable {
    /** Exit code when messages were lost. */
    public static final int EXIT_LOSS = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        quietLogs();
        CommandLine cli = new CommandLine(new LoadgenMain());
        // named from the subcommands themselves, so that the help and the usage error never leave one out
        cli.getCommandSpec().usageMessage().description("Seeded load for wakurelay nodes: the " + scenarios(cli, "and") + " scenarios.");
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            err.println("wakurelay-loadgen: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        });
        Sink.out = out;
        Sink.err = err;
        return cli.execute(args);
    }

    /** The scenarios' names, in the order of the help: {@code micro, macro, ... and query} (or {@code or query}). */
    static String scenarios(CommandLine cli, String conjunction) {
        List<String> names = List.copyOf(cli.getSubcommands().keySet());
        return String.join(", ", names.subList(0, names.size() - 1)) + " " + conjunction + " " + names.get(names.size() - 1);
    }

    /** The nodes a scenario starts log their start and stop at INFO; rows and progress are what matter here. */
    private static void quietLogs() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a scenario: " + scenarios(spec.commandLine(), "or"));
    }

    /** {@code --version}: the node's version, which this build of the load generator is part of. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"wakurelay-loadgen " + NodeVersion.VERSION};
        }
    }

    /** Where rows go (set per run so tests can capture them). */
    static final class Sink {
        static PrintStream out = System.out;
        static PrintStream err = System.err;

        private Sink() {
        }
    }
}
