package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.dns.DnsDiscoveryConfig;
import io.wakurelay.discovery.dns.Dnsmasq;
import io.wakurelay.discovery.dns.EnrTreeBuilder;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.crypto.PrivateKey;
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
 * Two nodes, B and C, named in a signed EIP-1459 tree that a real dnsmasq serves on 127.0.0.1; node D, given only
 * the tree's URL and that name server, connects to both, relays with them and serves their records by peer exchange.
 */
@Tag("process")
class DnsDiscoveryNodeTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closer = new Closer();

    private WakuNode start(String name, String ip, java.util.function.UnaryOperator<NodeConfigBuilder> more) {
        NodeConfigBuilder b = TestNodes.local(dir.resolve(name)).host(TestNodes.host(ip).build()).archive(null).rest(null);
        return closer.keep(WakuNode.start(more.apply(b).build()));
    }

    @Test
    void aNodeGivenOnlyATreeUrlConnectsToThePeersTheTreeNames() throws Exception {
        assumeTrue(Dnsmasq.installed(), "no /usr/sbin/dnsmasq (apt-get install dnsmasq-base)");
        WakuNode b = start("b", "127.0.0.2", x -> x);
        WakuNode c = start("c", "127.0.0.4", x -> x);
        EnrTreeBuilder tree = new EnrTreeBuilder(PrivateKey.generateSecp256k1().raw(), "nodes.wakurelay.test", 13);
        List<Enr> named = List.of(b.enr(), c.enr());
        Dnsmasq dns = closer.keep(Dnsmasq.serve("127.0.0.1", tree.build(named, 1)));

        DnsDiscoveryConfig config = DnsDiscoveryConfig.DEFAULTS.toBuilder().urls(List.of(tree.url()))
                .nameServers(List.of(dns.address())).retryInterval(Duration.ofSeconds(1)).syncInterval(Duration.ofMinutes(30))
                .build();
        WakuNode d = start("d", "127.0.0.3",
                x -> x.discovery(DiscoveryConfig.DEFAULTS.toBuilder().dns(config).build()));

        for (WakuNode peer : List.of(b, c)) {
            Eventually.until(() -> d.relay().peers().stream().anyMatch(p -> p.peerId().equals(peer.host().peerId())),
                    () -> "not a relay peer of D: " + peer.host().peerId() + "; D's relay peers: " + d.relay().peers());
        }
        // a record is kept once its dial completes, which the relay may see a moment before the discovery does
        Eventually.until(() -> d.metrics().scrape().contains("waku_px_cache_records 2.0"),
                () -> "D's peer exchange cache does not hold both records");
        for (WakuNode peer : List.of(b, c)) {
            Eventually.until(() -> PeerExchangeNodeTest.origin(d, peer).equals("Dns"),
                    () -> "D's origin of " + peer.host().peerId() + ": " + PeerExchangeNodeTest.origin(d, peer));
        }
        assertThat(d.metrics().scrape())
                .contains("waku_dnsdisc_discovered_total 2.0")
                .contains("waku_dnsdisc_errors_total{type=\"bad_signature\"} 0.0");
    }
}
