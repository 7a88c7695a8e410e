package io.wakurelay.loadgen;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/**
 * What the commands of the seeded scenarios share: the workload, the output, and the command's spec for its usage
 * errors (picocli reads the annotated fields of a command's superclass as its own).
 */
abstract class WorkloadCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    WorkloadOptions workload;
    @Mixin
    OutputOptions output;
}
