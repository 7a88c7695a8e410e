package io.wakurelay.loadgen;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;

/** {@code mesh}: {@link MeshScenario}, once or (with {@code --idontwant both}) twice. */
@Command(name = "mesh",
        description = "N relay nodes in a random overlay; messages handed to random nodes at a fixed rate reach all.")
final class MeshCommand extends WorkloadCommand {
    @Option(names = "--nodes", defaultValue = "10", paramLabel = "N", description = "relay nodes in this JVM (default: ${DEFAULT-VALUE})")
    int nodes;
    @Option(names = "--links", defaultValue = "4", paramLabel = "K",
            description = "nodes each node dials among those started before it (default: ${DEFAULT-VALUE})")
    int links;
    @Option(names = "--rate", defaultValue = "20", description = "messages per second handed to the overlay (default: ${DEFAULT-VALUE})")
    double rate;
    @Option(names = "--link-delay", defaultValue = "0", paramLabel = "MS",
            description = "one-way delay of every link, through a delaying proxy per link (default: ${DEFAULT-VALUE})")
    long linkDelayMs;
    @Option(names = "--link-bandwidth", defaultValue = "0", paramLabel = "MBIT",
            description = "each direction's bandwidth on every link, megabits per second, through the same proxies; 0: "
                    + "none (default: ${DEFAULT-VALUE})")
    double linkBandwidthMbit;
    @Option(names = "--idontwant", defaultValue = "on", paramLabel = "on|off|both",
            description = "whether nodes send IDONTWANT; both: a run with it off, then one with it on (default: ${DEFAULT-VALUE})")
    String iDontWant;

    @Override
    public Integer call() {
        if (nodes < 2 || nodes > 200 || links < 1 || rate <= 0 || linkDelayMs < 0 || linkBandwidthMbit < 0
                || !List.of("on", "off", "both").contains(iDontWant)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nodes must be 2..200, --links at "
                    + "least 1, --rate positive, --link-delay and --link-bandwidth not negative, --idontwant on, off or both");
        }
        long bitsPerSecond = Math.round(linkBandwidthMbit * 1e6);
        Workload w = workload.workload();
        List<Boolean> modes = iDontWant.equals("both") ? List.of(false, true) : List.of(iDontWant.equals("on"));
        return output.replaying(w).reportAll(output.inWorkDir(dir -> modes.stream().map(on -> MeshScenario.run(w,
                new MeshScenario.Settings(nodes, links, rate, Duration.ofMillis(linkDelayMs), bitsPerSecond, on),
                dir.resolve(on ? "idontwant-on" : "idontwant-off"), LoadgenMain.Sink.err)).toList()));
    }
}
