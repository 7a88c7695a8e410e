package io.wakurelay.loadgen;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;

/** {@code macro}: {@link MacroScenario}. */
@Command(name = "macro", description = "Two nodes on loopback: a publisher and an archiving receiver.")
final class MacroCommand extends WorkloadCommand {
    @Option(names = "--processes", description = "run the receiver as a separate process")
    boolean processes;

    @Option(names = "--store-message-db-url", defaultValue = "", paramLabel = "URL",
            description = "the receiver's --store-message-db-url: empty for RocksDB in the work dir, "
                    + "postgres://user:password@host:port/database for PostgreSQL (an empty database)")
    String storeDbUrl;
    @Option(names = "--transport", defaultValue = "tcp",
            description = "tcp, or ws: the publisher dials the receiver over libp2p's WebSocket transport "
                    + "(in-process only; default: ${DEFAULT-VALUE})")
    String transport;
    @Option(names = "--store-poll", paramLabel = "MS",
            description = "with --processes: how often the receiver's Store is polled for what it archived, "
                    + "1 - 1000 ms; the latency's resolution (default: ${DEFAULT-VALUE})")
    long storePollMillis = StorePoller.DEFAULT_INTERVAL.toMillis();

    @Override
    public Integer call() {
        Workload w = workload.workload();
        if (!transport.equals("tcp") && !transport.equals("ws")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--transport is tcp or ws, not " + transport);
        }
        if (storePollMillis < 1 || storePollMillis > 1000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--store-poll must be 1 - 1000 ms, was " + storePollMillis);
        }
        boolean ws = transport.equals("ws");
        Duration poll = Duration.ofMillis(storePollMillis);
        return output.replaying(w).report(output.inWorkDir(dir -> MacroScenario.run(w, dir, processes, storeDbUrl, ws, poll,
                LoadgenMain.Sink.err)));
    }
}
