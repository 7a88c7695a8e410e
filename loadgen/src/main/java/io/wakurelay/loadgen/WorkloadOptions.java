package io.wakurelay.loadgen;

import io.wakurelay.protocol.PayloadMix;
import picocli.CommandLine.Option;

/** The seeded workload (DESIGN.md's "Load generator") of the scenarios that replay one: a picocli mixin. */
final class WorkloadOptions {
    @Option(names = "--seed", defaultValue = "42", description = "seed of sizes and payloads (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--mix", defaultValue = PayloadMix.DEFAULT_SPEC, description = "payload mix bytes:percent,... (default: ${DEFAULT-VALUE})")
    String mix;

    @Option(names = {"-n", "--count"}, defaultValue = "1000", description = "measured messages (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--warmup", defaultValue = "100", description = "messages sent before measuring (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--pubsub-topic", description = "(default: ${DEFAULT-VALUE}, the node's)")
    String pubsubTopic = Workload.DEFAULT_PUBSUB_TOPIC;

    @Option(names = "--content-topic", defaultValue = Workload.DEFAULT_CONTENT_TOPIC, description = "(default: ${DEFAULT-VALUE})")
    String contentTopic;

    Workload workload() {
        return new Workload(seed, PayloadMix.parse(mix), count, warmup, pubsubTopic, contentTopic);
    }
}
