package io.wakurelay.node.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.node.config.PeerManagerConfig;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.Relay;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The peer manager against real hosts on 127.0.0.1. A host of 10 connections at 60:40 targets 6 relay peers (2 out,
 * 4 in) and 4 service peers. Peers are hosts that announce relay (or only store) in identify.
 */
@Tag("slow")
class PeerManagerTest {
    private static final String STORE = "/vac/waku/store-query/3.0.0";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final PeerManagerConfig FAST = PeerManagerConfig.DEFAULTS.toBuilder()
            .initialBackoff(Duration.ofSeconds(2)).connectivityInterval(Duration.ofSeconds(2))
            .dialTimeout(Duration.ofSeconds(3)).build();

    @RegisterExtension
    final Closer closer = new Closer();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<Enr> connected = new CopyOnWriteArrayList<>();

    private Host host(PrivateKey key, int port, String... protocols) {
        Host h = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0.1", port))
                .maxConnections(10).reservedOutboundSlots(2).ipColocationLimit(0).handshakeTimeout(Duration.ofSeconds(5)).build(),
                key, new SimpleMeterRegistry());
        for (String p : protocols) {
            h.handle(p, stream -> null);
        }
        return closer.keep(h);
    }

    private Host peer(String protocol) {
        return host(PrivateKey.generateSecp256k1(), 0, protocol);
    }

    private PeerManager manager(Host host, PeerManagerConfig config) {
        return closer.keep(PeerManager.start(config, 10, host, null, registry,
                (record, origin) -> connected.add(record)));
    }

    private static Enr record(PrivateKey key, int port) {
        return EnrBuilder.of(key).announce(List.of(Multiaddr.parse("/ip4/127.0.0.1/tcp/" + port))).build(1);
    }

    private static Enr record(Host peer) {
        return record(peer.identity(), peer.boundAddress().getPort());
    }

    private double count(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).counter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private static long outbound(Host host) {
        return host.connections().stream().filter(Connection::isOutbound).count();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void theManagerDialsCandidatesOfAnySourceUpToTheOutboundRelayTargetAndNoMore() throws Exception {
        Host node = host(PrivateKey.generateEd25519(), 0);
        PeerManager manager = manager(node, FAST);
        assertThat(manager.targets()).isEqualTo(new PeerTargets(4, 2, 4));
        List<Enr> records = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(record(peer(Relay.PROTOCOL_ID)));
        }
        manager.offer(records.subList(0, 2), Origin.DNS);
        manager.offer(records.subList(2, 4), Origin.PEER_EXCHANGE);
        manager.offer(records.subList(4, 5), Origin.DISCV5);

        Eventually.until(() -> outbound(node) == 2, WAIT, () -> "outbound: " + node.connections());
        Thread.sleep(3_000); // rounds come every second while short of peers, and after each offer and dial
        assertThat(outbound(node)).isEqualTo(2);
        assertThat(count("waku.peers.dials", "outcome", "successful")).isEqualTo(2);
        assertThat(connected).hasSize(2);
        assertThat(gauge("waku.peer.store.size")).isEqualTo(5);
        double initiated = 0;
        for (Origin o : Origin.values()) {
            initiated += count("waku.node.conns.initiated", "source", o.label());
        }
        assertThat(initiated).isEqualTo(2);
        assertThat(registry.get("waku.peer.manager.peers").tag("kind", "out_relay").gauge().value()).isEqualTo(2);
    }

    @Test
    void aPeerWhoseDialFailedIsBackedOffAndDialledAgainAfterTheBackoff() throws Exception {
        Host node = host(PrivateKey.generateEd25519(), 0);
        PeerManager manager = manager(node, FAST);
        PrivateKey key = PrivateKey.generateSecp256k1();
        int port = closedPort();
        manager.offer(List.of(record(key, port)), Origin.DISCV5);
        Eventually.until(() -> count("waku.peers.dials", "outcome", "failed") == 1, WAIT,
                () -> "dials: " + registry.find("waku.peers.dials").counters());
        long failedAt = manager.store().get(PeerId.fromPublicKey(key.publicKey())).lastFailedNanos;
        Host peer = host(key, port, Relay.PROTOCOL_ID); // now the port answers; the peer is in its backoff (2 s)
        assertThat(manager.store().get(peer.peerId()).failedAttempts).isEqualTo(1);

        Thread.sleep(Math.max(0, 1_500 - (System.nanoTime() - failedAt) / 1_000_000));
        assertThat(node.connection(peer.peerId())).as("dialled again within its backoff").isEmpty();
        assertThat(count("waku.peers.dials", "outcome", "failed")).isEqualTo(1);

        Eventually.until(() -> node.connection(peer.peerId()).isPresent(), WAIT,
                () -> "not redialled; dials: " + registry.find("waku.peers.dials").counters());
        assertThat((System.nanoTime() - failedAt) / 1_000_000).isGreaterThanOrEqualTo(2_000);
        // the connection is visible a moment before the manager's dial completes and counts it (failed in CI)
        Eventually.until(() -> count("waku.peers.dials", "outcome", "successful") == 1
                        && manager.store().get(peer.peerId()).failedAttempts == 0, WAIT,
                () -> "dials: " + registry.find("waku.peers.dials").counters());
    }

    @Test
    void inboundRelayPeersBeyondTheInboundTargetAreDisconnectedNewestFirst() {
        Host node = host(PrivateKey.generateEd25519(), 0, Relay.PROTOCOL_ID);
        manager(node, FAST);
        List<Host> peers = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Host p = peer(Relay.PROTOCOL_ID);
            p.dial(node.listenAddresses().get(0)).block(WAIT);
            peers.add(p);
            int arrived = i + 1; // registered by the node (and perhaps pruned already) before the next one dials
            Eventually.until(() -> node.connections().size() + count("waku.peer.manager.pruned", "kind", "in_relay")
                    >= arrived, WAIT, () -> "not connected");
        }
        Eventually.until(() -> count("waku.peer.manager.pruned", "kind", "in_relay") == 2
                        && node.connections().size() == 4, WAIT,
                () -> "connections: " + node.connections().size() + ", pruned: "
                        + count("waku.peer.manager.pruned", "kind", "in_relay"));
        // the first four stay, the last two (newest) went
        for (int i = 0; i < 4; i++) {
            assertThat(node.connection(peers.get(i).peerId())).as("peer " + i).isPresent();
        }
        assertThat(count("waku.peer.manager.pruned", "kind", "service")).isZero();
    }

    @Test
    void inboundServicePeersBeyondTheServiceShareAreDisconnected() {
        Host node = host(PrivateKey.generateEd25519(), 0, Relay.PROTOCOL_ID, STORE);
        manager(node, FAST.toBuilder().ratio(io.wakurelay.node.config.RelayServiceRatio.parse("80:20")).build());
        for (int i = 0; i < 5; i++) { // 20 % of 10: 2 service peers
            Host p = peer(STORE);
            p.dial(node.listenAddresses().get(0)).block(WAIT);
        }
        Eventually.until(() -> count("waku.peer.manager.pruned", "kind", "service") == 3
                        && node.connections().size() == 2, WAIT,
                () -> "connections: " + node.connections().size() + ", pruned: "
                        + count("waku.peer.manager.pruned", "kind", "service"));
        assertThat(registry.get("waku.peer.manager.target").tag("kind", "service").gauge().value()).isEqualTo(2);
        assertThat(count("waku.peer.manager.pruned", "kind", "in_relay")).isZero();
    }

    @Test
    void aFloodOfRecordsKeepsTheStoreWithinItsCapacityAndKeepsThePeersProvenToConnect() throws Exception {
        Host node = host(PrivateKey.generateEd25519(), 0);
        PeerManager manager = manager(node, FAST.toBuilder().storeCapacity(16).build());
        Host proven = peer(Relay.PROTOCOL_ID);
        manager.offer(List.of(record(proven)), Origin.PEER_EXCHANGE);
        Eventually.until(() -> node.connection(proven.peerId()).isPresent(), WAIT, () -> "not connected");
        // proven, now disconnected: a candidate again. The manager may dial it again at once (a relay peer, below the
        // target: waiting for it to stay away failed in CI); connected or not, it is never the one evicted
        node.connection(proven.peerId()).orElseThrow().close();

        int port = closedPort();
        List<Enr> flood = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // as a peer exchange answer or discv5 NODES of an attacker would
            flood.add(record(PrivateKey.generateSecp256k1(), port));
        }
        for (int i = 0; i < flood.size(); i += 10) {
            manager.offer(flood.subList(i, i + 10), i % 20 == 0 ? Origin.PEER_EXCHANGE : Origin.DISCV5);
        }
        assertThat(gauge("waku.peer.store.size")).isEqualTo(16);
        assertThat(gauge("waku.peer.store.capacity")).isEqualTo(16);
        assertThat(registry.get("waku.peer.store.evictions").functionCounter().count()).isEqualTo(85);
        assertThat(count("waku.peer.store.offers", "outcome", "added")).isEqualTo(101);
        assertThat(manager.candidates()).extracting(CandidateView::peerId).contains(proven.peerId());
    }
}
