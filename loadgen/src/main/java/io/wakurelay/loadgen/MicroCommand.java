package io.wakurelay.loadgen;

import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.node.config.NodeConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code micro}: {@link MicroScenario}. */
@Command(name = "micro",
        description = "One node, no network: frames injected into the receive path and archived (RocksDB, or PostgreSQL).")
final class MicroCommand extends WorkloadCommand {
    @Option(names = "--store-durability", paramLabel = "MODE",
            description = "the node's --store-durability: wal, wal-sync or flush (default: ${DEFAULT-VALUE}, the node's)")
    String durability = RocksConfig.DEFAULTS.durability().label();

    @Option(names = "--store-message-db-url", defaultValue = "", paramLabel = "URL",
            description = "the node's --store-message-db-url: empty for RocksDB in the work dir, "
                    + "postgres://user:password@host:port/database for PostgreSQL (an empty database: the run counts what it stores)")
    String storeDbUrl;

    @Override
    public Integer call() {
        Workload w = workload.workload();
        Durability mode = Durability.parse(durability);
        return output.replaying(w).report(output.inWorkDir(dir -> MicroScenario.run(w, dir, mode, storeDbUrl, LoadgenMain.Sink.err)));
    }
}
