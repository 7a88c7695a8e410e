package io.wakurelay.loadgen;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/** {@code thr}: {@link ThroughputScenario}. */
@Command(name = "thr", description = "Throughput through a relay node, after nanomsg's local_thr/remote_thr.")
final class ThroughputCommand implements Callable<Integer> {
    @Mixin
    RelayTrioOptions trio;
    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        return output.report(output.inWorkDir(dir -> ThroughputScenario.run(trio.topic, trio.size, trio.count, trio.warmup, trio.store,
                dir, LoadgenMain.Sink.err)));
    }
}
