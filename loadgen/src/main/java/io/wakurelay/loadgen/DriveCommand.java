package io.wakurelay.loadgen;

import io.wakurelay.node.config.DurationText;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.MultiaddrFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code drive}: {@link DriveScenario}; exits with {@link LoadgenMain#EXIT_LOSS} when a message is missing. */
@Command(name = "drive",
        description = "Against running nodes: publish to one node over libp2p (gossipsub) or its REST API, verify every hash in "
                + "another node's store over REST; that node's counters and memory from its /metrics.")
final class DriveCommand extends WorkloadCommand {
    @CommandLine.ArgGroup(multiplicity = "1")
    PublishTarget target;

    /** Exactly one way to publish. */
    static final class PublishTarget {
        @Option(names = "--publish-to", required = true, paramLabel = "MULTIADDR",
                description = "the node to publish to as a libp2p peer: a multiaddr ending in /p2p/<peer id>, as its /debug/v1/info lists them")
        String publishTo;

        @Option(names = "--publish-rest", required = true, paramLabel = "HOST:PORT",
                description = "the node to publish to through its REST API (POST /relay/v1/messages), ours or nwaku's")
        String publishRest;
    }

    @Option(names = "--store-at", required = true, paramLabel = "HOST:PORT", description = "REST address of the node whose store is checked")
    String storeAt;

    @Option(names = "--metrics-at", paramLabel = "[HOST]:PORT",
            description = "metrics address of the --store-at node, whose counters and memory the row reports; without HOST, "
                    + "the --store-at host (default: ${DEFAULT-VALUE}, the node's --metrics-server-port)")
    String metricsAt = ":" + NodeConfig.DEFAULTS.metrics().port();

    @Option(names = "--rate", defaultValue = "0", description = "messages per second; 0 = as fast as confirmations allow (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--settle", defaultValue = "30s", description = "how long to wait for stragglers before counting losses (default: ${DEFAULT-VALUE})")
    String settle;

    @Override
    public Integer call() {
        String publishTo = target.publishTo;
        try {
            if (publishTo != null && Multiaddr.parse(publishTo).peerId().isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--publish-to must end in /p2p/<peer id> (the node's /debug/v1/info lists its addresses), was " + publishTo);
            }
        } catch (MultiaddrFormatException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--publish-to is not a multiaddr: " + e.getMessage());
        }
        int colon = storeAt.lastIndexOf(':');
        if (colon <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--store-at is HOST:PORT, was " + storeAt);
        }
        String metrics = metricsAt.startsWith(":") ? storeAt.substring(0, colon) + metricsAt : metricsAt;
        Workload w = workload.workload();
        DriveScenario.Nodes nodes = new DriveScenario.Nodes(publishTo, target.publishRest, storeAt, metrics);
        return output.replaying(w).report(output.inWorkDir(dir -> DriveScenario.run(w, nodes, rate, DurationText.parse(settle), dir,
                LoadgenMain.Sink.err)));
    }
}
