package io.wakurelay.loadgen;

import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.nio.file.Path;

/** {@code thr}: {@link ThroughputScenario}. */
@Command(name = "thr", description = "Throughput through a relay node, after nanomsg's local_thr/remote_thr.")
final class ThroughputCommand extends RelayTrioCommand {
    @Override
    ResultRow run(Path dir, PrintStream err) {
        return ThroughputScenario.run(trio.topic, trio.size, trio.count, trio.warmup, trio.store, dir, err);
    }
}
