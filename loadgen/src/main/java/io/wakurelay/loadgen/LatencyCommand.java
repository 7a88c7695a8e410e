package io.wakurelay.loadgen;

import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.nio.file.Path;

/** {@code lat}: {@link LatencyScenario}. */
@Command(name = "lat", description = "Round-trip latency through a relay node, after nanomsg's local_lat/remote_lat.")
final class LatencyCommand extends RelayTrioCommand {
    @Override
    ResultRow run(Path dir, PrintStream err) {
        return LatencyScenario.run(trio.topic, trio.size, trio.count, trio.warmup, trio.store, dir, err);
    }
}
