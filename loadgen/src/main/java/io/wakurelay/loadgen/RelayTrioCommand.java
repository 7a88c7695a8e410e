package io.wakurelay.loadgen;

import picocli.CommandLine.Mixin;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code lat} and {@code thr}: a scenario on {@link RelayTrio} with {@link RelayTrioOptions}, reported as one row. */
abstract class RelayTrioCommand implements Callable<Integer> {
    @Mixin
    RelayTrioOptions trio;
    @Mixin
    OutputOptions output;

    @Override
    public final Integer call() {
        return output.report(output.inWorkDir(dir -> run(dir, LoadgenMain.Sink.err)));
    }

    /** Runs the scenario in {@code dir}, its progress to {@code err}. */
    abstract ResultRow run(Path dir, PrintStream err);
}
