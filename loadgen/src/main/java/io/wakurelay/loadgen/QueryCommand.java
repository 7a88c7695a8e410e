package io.wakurelay.loadgen;

import io.wakurelay.archive.StoreQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** {@code query}: {@link QueryScenario}. */
@Command(name = "query",
        description = "Against a running node: Store query latency and the node's memory per query, pages with data over REST.")
final class QueryCommand implements Callable<Integer> {
    @Mixin
    OutputOptions output;

    @Option(names = "--rest-at", required = true, paramLabel = "HOST:PORT", description = "REST address of the node queried")
    String restAt;

    @Option(names = "--metrics-at", required = true, paramLabel = "HOST:PORT", description = "metrics address of the same node")
    String metricsAt;

    @Option(names = "--page-size", defaultValue = "" + StoreQuery.DEFAULT_PAGE_SIZE,
            description = "messages per page, with data (default: ${DEFAULT-VALUE}, the node's)")
    int pageSize;

    @Option(names = {"-n", "--count"}, defaultValue = "200", description = "queries measured, after 20 of warmup (default: ${DEFAULT-VALUE})")
    int queries;

    @Option(names = "--concurrency", defaultValue = "1", description = "clients querying at once (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--fill", defaultValue = "0", description = "messages to publish over REST first (default: ${DEFAULT-VALUE})")
    int fill;

    @Option(names = "--payload-bytes", defaultValue = "140000", description = "payload size of the --fill messages (default: ${DEFAULT-VALUE})")
    int payloadBytes;

    @Option(names = "--pubsub-topic", description = "(default: ${DEFAULT-VALUE}, the node's)")
    String pubsubTopic = Workload.DEFAULT_PUBSUB_TOPIC;

    @Option(names = "--content-topic", defaultValue = "/loadgen/1/query/proto", description = "(default: ${DEFAULT-VALUE})")
    String contentTopic;

    @Override
    public Integer call() {
        return output.report(QueryScenario.run(new QueryScenario.Options(restAt, metricsAt, pageSize, queries, concurrency, fill,
                payloadBytes, pubsubTopic, contentTopic), LoadgenMain.Sink.err));
    }
}
