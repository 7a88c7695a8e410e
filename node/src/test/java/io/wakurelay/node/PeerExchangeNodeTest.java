package io.wakurelay.node;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peerexchange.PeerExchangeDiscoveryConfig;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes: A is given C as a static peer by its ENR; D is given only A as its peer exchange node, learns C from
 * A, connects to it, and serves C's record in turn.
 */
class PeerExchangeNodeTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closer = new Closer();

    private WakuNode start(String name, String ip, java.util.function.UnaryOperator<NodeConfigBuilder> more) {
        NodeConfigBuilder b = TestNodes.local(dir.resolve(name)).host(TestNodes.host(ip).build()).archive(null).rest(null);
        return closer.keep(WakuNode.start(more.apply(b).build()));
    }

    private static PeerId peerOf(WakuNode node) {
        return node.host().peerId();
    }

    @Test
    void aNodeGivenOnlyAPeerExchangeNodeFindsAndConnectsToThatNodesPeer() {
        WakuNode c = start("c", "127.0.0.4", b -> b);
        Enr cRecord = c.enr();
        WakuNode a = start("a", "127.0.0.2", b -> b
                .host(TestNodes.host("127.0.0.2").staticPeers(List.of(cRecord.dialAddresses().get(0))).build())
                .discovery(DiscoveryConfig.DEFAULTS.toBuilder().staticRecords(List.of(cRecord)).build()));
        Eventually.until(() -> a.host().connection(peerOf(c)).isPresent(), () -> "A did not connect to its static peer C");

        WakuNode d = start("d", "127.0.0.3", b -> b.discovery(DiscoveryConfig.DEFAULTS.toBuilder().peerExchange(
                PeerExchangeDiscoveryConfig.DEFAULTS.toBuilder().node(a.multiaddr()).build()).build()));

        Eventually.until(() -> d.host().connection(peerOf(c)).isPresent(),
                () -> "D did not connect to C; D's connections: " + d.host().connections());
        Eventually.until(() -> d.relay().peers().stream().anyMatch(p -> p.peerId().equals(peerOf(c))),
                () -> "C is not a relay peer of D: " + d.relay().peers());
        assertThat(a.metrics().scrape()).contains("waku_px_peers_sent_total 1.0");
        // D dialled A, A dialled C, and both serve peer exchange (counted once identify has told A so)
        Eventually.until(() -> a.metrics().scrape().contains(
                        "waku_connected_peers{direction=\"In\",protocol=\"/vac/waku/peer-exchange/2.0.0-alpha1\"} 1.0")
                        && a.metrics().scrape().contains(
                        "waku_connected_peers{direction=\"Out\",protocol=\"/vac/waku/peer-exchange/2.0.0-alpha1\"} 1.0"),
                () -> "A's waku_connected_peers of peer exchange: " + a.metrics().scrape().lines()
                        .filter(l -> l.contains("peer-exchange") && l.startsWith("waku_connected_peers")).toList());
        assertThat(d.metrics().scrape()).contains("waku_px_records_total{outcome=\"connected\"} 1.0")
                .contains("waku_px_cache_records 1.0");
        // /admin/v1/peers says how D found C, in nwaku's words
        Eventually.until(() -> origin(d, c).equals("PeerExchange"), () -> "D's origin of C: " + origin(d, c));
    }

    static String origin(WakuNode of, WakuNode peer) {
        return of.peers().stream().filter(p -> p.peerId().equals(peer.host().peerId().toString()))
                .map(io.wakurelay.node.status.PeerView::origin).findFirst().orElse("not a peer");
    }
}
