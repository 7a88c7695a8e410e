package io.wakurelay.loadgen;

import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.node.config.DurationText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code discover}: {@link DiscoverScenario}; exits with {@link DiscoverRun#EXIT_NOT_FORMED} when a milestone was missed. */
@Command(name = "discover",
        description = "N relay nodes given only node 0's ENR as discv5 bootstrap node form one mesh; a message reaches all.")
final class DiscoverCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    OutputOptions output;

    @Option(names = "--nodes", defaultValue = "20", paramLabel = "N", description = "relay nodes in this JVM, on 127.0.0.2.. (default: ${DEFAULT-VALUE})")
    int nodes;
    @Option(names = "--lookup-interval", paramLabel = "DURATION",
            description = "pause between two discv5 lookups of a node (default: ${DEFAULT-VALUE}, the node's, as nwaku's)")
    String lookupInterval = DurationText.format(Discv5DiscoveryConfig.DEFAULTS.lookupInterval());
    @Option(names = "--timeout", defaultValue = "120s", paramLabel = "DURATION",
            description = "how long the nodes have to reach every milestone (default: ${DEFAULT-VALUE})")
    String timeout;
    @Option(names = {"-n", "--count"}, defaultValue = "50", description = "messages published once formed (default: ${DEFAULT-VALUE})")
    int count;
    @Option(names = "--payload-bytes", defaultValue = "1000", description = "payload of each message (default: ${DEFAULT-VALUE})")
    int payloadBytes;
    @Option(names = "--rate", defaultValue = "10", description = "messages per second (default: ${DEFAULT-VALUE})")
    double rate;
    @Option(names = "--seed", defaultValue = "42", description = "seed of the publishing nodes and payloads (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--settle", defaultValue = "30s", description = "how long to wait for stragglers (default: ${DEFAULT-VALUE})")
    String settle;
    @Option(names = "--pubsub-topic", description = "(default: ${DEFAULT-VALUE}, the node's)")
    String topic = Workload.DEFAULT_PUBSUB_TOPIC;

    @Override
    public Integer call() {
        if (nodes < 2 || nodes > 251 || count < 1 || rate <= 0 || payloadBytes < 0 || payloadBytes > 100_000) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--nodes must be 2..251, --count at least 1, --rate positive, --payload-bytes 0..100000");
        }
        DiscoverScenario.Params p = new DiscoverScenario.Params(nodes, DurationText.parse(lookupInterval),
                DurationText.parse(timeout), count, payloadBytes, rate, seed, topic, DurationText.parse(settle));
        ResultRow row = output.inWorkDir(dir -> DiscoverScenario.run(p, dir, LoadgenMain.Sink.err));
        int code = output.report(row);
        return code != 0 || DiscoverRun.formed(row) ? code : DiscoverRun.EXIT_NOT_FORMED;
    }
}
