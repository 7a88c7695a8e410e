package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.discv5.Discv5Config;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.discovery.discv5.Discv5Metrics;
import io.wakurelay.discovery.discv5.Discv5Service;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.LocalEnr;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --discv5-enr-auto-update in a running node: the node announces 10.9.8.7 (--ext-multiaddr-only), its 10 bootstrap
 * nodes (real discv5 services on 127.0.0.1) answer its pings with PONGs naming 127.0.0.1 and its discv5 port, and
 * the node's record (enrUri and {@code <data-dir>/enr}) takes that address with the next sequence number.
 */
class Discv5EnrAutoUpdateNodeTest {

    @TempDir
    Path dir;

    @Test
    void theNodesRecordTakesTheAddressItsBootstrapNodesSeeItAt() throws Exception {
        List<Discv5Service> peers = new ArrayList<>();
        try {
            List<Enr> records = startBootstrapNodes(peers, 10);
            NodeConfig config = config(records, true);
            try (WakuNode node = WakuNode.start(config)) {
                Enr first = Enr.parse(node.enrUri());
                assertThat(first.ip4()).contains(InetAddress.getByName("10.9.8.7"));
                int udp = first.udp().orElseThrow();
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (node.enr().seq() == first.seq() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                Enr updated = node.enr();
                assertThat(updated.seq()).isEqualTo(first.seq() + 1);
                assertThat(updated.ip4()).contains(InetAddress.getByName("127.0.0.1"));
                assertThat(updated.udp()).contains(udp);
                assertThat(updated.tcp()).isEqualTo(first.tcp()); // the TCP port stays
                assertThat(node.enrUri()).isEqualTo(updated.text());
                assertThat(Files.readString(dir.resolve("data").resolve(LocalEnr.FILE_NAME)).strip())
                        .isEqualTo(updated.text());
            }
        } finally {
            peers.forEach(Discv5Service::close);
        }
    }

    @Test
    void withoutTheOptionTheRecordKeepsTheAnnouncedAddress() throws Exception {
        List<Discv5Service> peers = new ArrayList<>();
        try {
            List<Enr> records = startBootstrapNodes(peers, 10);
            try (WakuNode node = WakuNode.start(config(records, false))) {
                Enr first = node.enr();
                // the bootstrap nodes answer within a second; give them three
                long deadline = System.nanoTime() + 3_000_000_000L;
                while (peers.stream().mapToInt(Discv5Service::sessionCount).sum() < 10
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                Thread.sleep(500);
                assertThat(peers.stream().mapToInt(Discv5Service::sessionCount).sum()).isEqualTo(10);
                assertThat(node.enr()).isEqualTo(first);
                assertThat(first.ip4()).contains(InetAddress.getByName("10.9.8.7"));
            }
        } finally {
            peers.forEach(Discv5Service::close);
        }
    }

    /** {@code count} discv5 services on 127.0.0.1, added to {@code started} (the caller closes them); their records. */
    private static List<Enr> startBootstrapNodes(List<Discv5Service> started, int count) throws InterruptedException {
        List<Enr> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            PrivateKey key = PrivateKey.generateSecp256k1();
            AtomicReference<Enr> record = new AtomicReference<>();
            Discv5Service peer = Discv5Service.start(
                    Discv5Config.defaults(new InetSocketAddress("127.0.0.1", 0), List.of()), key.raw(),
                    record::get, new Discv5Metrics(new SimpleMeterRegistry()));
            started.add(peer);
            int port = peer.localAddress().getPort();
            record.set(EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + port)))
                    .udpPort(port).build(1));
            records.add(record.get());
        }
        return records;
    }

    private NodeConfig config(List<Enr> bootstrap, boolean autoUpdate) {
        NodeConfig base = TestNodes.local(dir.resolve("data"))
                .host(TestNodes.host("127.0.0.1").announceAddresses(List.of(Multiaddr.parse("/ip4/10.9.8.7/tcp/60000")))
                        .externalAddressesOnly(true).build())
                .build();
        Discv5DiscoveryConfig discv5 = Discv5DiscoveryConfig.DEFAULTS.toBuilder().enabled(true).udpPort(0)
                .bootstrap(bootstrap).enrAutoUpdate(autoUpdate).build();
        return base.toBuilder().discovery(base.discovery().toBuilder().discv5(discv5).build()).build();
    }
}
