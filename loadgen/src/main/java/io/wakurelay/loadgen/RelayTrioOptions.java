package io.wakurelay.loadgen;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The arguments of {@code lat} and {@code thr}, nanomsg's shape on {@link RelayTrio}: a picocli mixin. */
final class RelayTrioOptions {
    @Parameters(index = "0", paramLabel = "SIZE", description = "message payload size in bytes")
    int size;
    @Parameters(index = "1", paramLabel = "COUNT", description = "messages measured (round trips for lat)")
    int count;
    @Option(names = "--warmup", defaultValue = "100", description = "messages (round trips for lat) before measuring (default: ${DEFAULT-VALUE})")
    int warmup;
    @Option(names = "--store", description = "let the relay node archive too")
    boolean store;
    @Option(names = "--pubsub-topic", description = "(default: ${DEFAULT-VALUE}, the node's)")
    String topic = Workload.DEFAULT_PUBSUB_TOPIC;
}
