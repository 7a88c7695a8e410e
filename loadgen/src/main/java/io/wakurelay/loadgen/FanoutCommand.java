package io.wakurelay.loadgen;

import io.wakurelay.node.config.NodeConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fanout}: {@link FanoutScenario}. */
@Command(name = "fanout",
        description = "One archiving relay node forwarding every message to D mesh peers over Noise and yamux.")
final class FanoutCommand extends WorkloadCommand {
    @Option(names = "-d", paramLabel = "D",
            description = "mesh peers of the relay, each a node in this JVM (default: ${DEFAULT-VALUE}, the node's gossipsub D)")
    int d = NodeConfig.DEFAULTS.relay().gossip().d();

    @Override
    public Integer call() {
        if (d < 1 || d > 64) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-d must be 1..64, was " + d);
        }
        Workload w = workload.workload();
        return output.replaying(w).report(output.inWorkDir(dir -> FanoutScenario.run(w, d, dir, LoadgenMain.Sink.err)));
    }
}
