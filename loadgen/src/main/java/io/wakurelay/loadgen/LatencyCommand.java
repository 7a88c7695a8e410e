package io.wakurelay.loadgen;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/** {@code lat}: {@link LatencyScenario}. */
@Command(name = "lat", description = "Round-trip latency through a relay node, after nanomsg's local_lat/remote_lat.")
final class LatencyCommand implements Callable<Integer> {
    @Mixin
    RelayTrioOptions trio;
    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        return output.report(output.inWorkDir(dir -> LatencyScenario.run(trio.topic, trio.size, trio.count, trio.warmup, trio.store,
                dir, LoadgenMain.Sink.err)));
    }
}
