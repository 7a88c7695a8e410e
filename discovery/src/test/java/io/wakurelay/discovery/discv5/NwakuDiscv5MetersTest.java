package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The discv5 meters under nwaku's and nim-eth's names, which nwaku's dashboards read: {@code routing_table_nodes}
 * (the table's size; every node of ours answered, so all are "seen") and {@code waku_discv5_discovered_per_shard},
 * whose label values are the node's own shards, never one a record names.
 */
class NwakuDiscv5MetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Discv5Metrics metrics = new Discv5Metrics(registry);

    @Test
    void routingTableNodesIsTheTableSizeAndEveryNodeInItIsSeen() {
        int[] size = {0};
        metrics.bind(() -> 0, () -> size[0], () -> 0);
        size[0] = 7;

        assertThat(registry.get("routing.table.nodes").tags("state", "seen").gauge().value()).isEqualTo(7);
        assertThat(registry.find("routing.table.nodes").gauges()).hasSize(2)
                .allSatisfy(g -> assertThat(g.value()).isEqualTo(7));
    }

    @Test
    void discoveredPerShardCountsTheRecordsOfTheNodesOwnShardsOnly() {
        metrics.shards(List.of(0, 3));
        assertThat(perShard("0")).isZero();
        assertThat(perShard("3")).isZero();

        metrics.discoveredOn(List.of(0, 1, 2, 3));
        metrics.discoveredOn(List.of(3, 700));
        metrics.discoveredOn(List.of(5));

        assertThat(perShard("0")).isEqualTo(1);
        assertThat(perShard("3")).isEqualTo(2);
        assertThat(registry.find("waku.discv5.discovered.per.shard").gauges())
                .as("no series for a shard the node does not relay, whatever a record names").hasSize(2);
    }

    @Test
    void closingRemovesThePerShardSeries() {
        metrics.shards(List.of(1));
        metrics.close();
        assertThat(registry.find("waku.discv5.discovered.per.shard").gauges()).isEmpty();
        assertThat(registry.find("routing.table.nodes").gauges()).isEmpty();
    }

    private double perShard(String shard) {
        return registry.get("waku.discv5.discovered.per.shard").tags("shard", shard).gauge().value();
    }
}
