package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes with discv5 on: B and C are given only A's ENR as their bootstrap node; by random lookups they find
 * each other's records, which name this cluster's shard and a TCP address, and dial each other.
 */
@Tag("process")
class Discv5NodeTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closer = new Closer();

    private WakuNode start(String name, String ip, Discv5DiscoveryConfig discv5) {
        NodeConfigBuilder b = TestNodes.local(dir.resolve(name)).host(TestNodes.host(ip).build()).archive(null)
                .rest(null).discovery(DiscoveryConfig.DEFAULTS.toBuilder().discv5(discv5).build());
        return closer.keep(WakuNode.start(b.build()));
    }

    @Test
    void nodesGivenOneBootstrapEnrFindAndDialEachOther() throws Exception {
        Discv5DiscoveryConfig on = Discv5DiscoveryConfig.DEFAULTS.toBuilder().enabled(true).udpPort(0)
                .lookupInterval(Duration.ofMillis(300)).build();
        WakuNode a = start("a", "127.0.0.2", on);
        assertThat(a.enr().udp()).isPresent(); // the record names the UDP port discv5 got
        WakuNode b = start("b", "127.0.0.3", on.toBuilder().bootstrap(List.of(a.enr())).build());
        WakuNode c = start("c", "127.0.0.4", on.toBuilder().bootstrap(List.of(a.enr())).build());

        for (WakuNode[] pair : new WakuNode[][] {{b, c}, {c, b}, {b, a}, {c, a}}) {
            WakuNode from = pair[0];
            WakuNode to = pair[1];
            Eventually.until(() -> from.host().connection(to.host().peerId()).isPresent(),
                    () -> "not connected: " + from.host().peerId() + " -> " + to.host().peerId());
        }
        // whichever of B and C dialled the other found it by discv5, and says so in /admin/v1/peers
        Eventually.until(() -> PeerExchangeNodeTest.origin(b, c).equals("Discv5") || PeerExchangeNodeTest.origin(c, b).equals("Discv5"),
                () -> "origins: B of C " + PeerExchangeNodeTest.origin(b, c) + ", C of B " + PeerExchangeNodeTest.origin(c, b));
        assertThat(b.metrics().scrape())
                .containsPattern("waku_discv5_lookups_total [1-9]")
                .containsPattern("waku_discv5_packets_in_total\\{kind=\"ordinary\"} [1-9]")
                .contains("waku_discv5_dropped_total{reason=\"invalid\"} 0.0")
                // nwaku's and nim-eth's names: the records of B's shard its lookups found, its table's nodes
                .containsPattern("waku_discv5_discovered_per_shard\\{shard=\"0\"} [1-9]")
                .containsPattern("(?m)^routing_table_nodes [1-9]")
                .containsPattern("routing_table_nodes\\{state=\"seen\"} [1-9]");
    }
}
