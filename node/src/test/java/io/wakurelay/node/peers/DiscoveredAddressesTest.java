package io.wakurelay.node.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.node.config.PeerManagerConfig;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.Relay;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 43's N8 against real hosts: what a node dials of the records discovery offers, by its own addresses. Every
 * peer listens on 127.0.0.x; a node that announces a public address (here 1.2.3.4, never contacted) is a public node.
 * Only loopback addresses are ever dialled by these tests, whatever the code under test does.
 */
class DiscoveredAddressesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final PeerManagerConfig FAST = PeerManagerConfig.DEFAULTS.toBuilder()
            .initialBackoff(Duration.ofSeconds(2)).connectivityInterval(Duration.ofSeconds(2))
            .dialTimeout(Duration.ofSeconds(3)).build();

    @RegisterExtension
    final Closer closer = new Closer();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Host host(String ip, List<Multiaddr> announced, String... protocols) {
        Host h = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress(ip, 0)).announceAddresses(announced)
                .maxConnections(10).reservedOutboundSlots(2).ipColocationLimit(0)
                .handshakeTimeout(Duration.ofSeconds(5)).build(), PrivateKey.generateSecp256k1(), new SimpleMeterRegistry());
        for (String p : protocols) {
            h.handle(p, stream -> null);
        }
        return closer.keep(h);
    }

    private Host relayPeer() {
        return host("127.0.0.5", List.of(), Relay.PROTOCOL_ID);
    }

    private static Enr record(Host peer, String address) {
        return EnrBuilder.of(peer.identity()).announce(List.of(Multiaddr.parse(address))).build(1);
    }

    private double count(String name, String tag, String value) {
        return registry.get(name).tag(tag, value).counter().count();
    }

    private PeerManager manager(Host node, PeerManagerConfig config, NameResolver names) {
        return closer.keep(PeerManager.start(config, 10, node, null, registry, (record, origin) -> { }, names));
    }

    @Test
    void aPublicNodeDoesNotDialARecordThatNamesALoopbackAddress() throws Exception {
        Host node = host("127.0.0.1", List.of(Multiaddr.parse("/ip4/1.2.3.4/tcp/60000")));
        PeerManager manager = manager(node, FAST, name -> CompletableFuture.failedFuture(new IllegalStateException()));
        Host peer = relayPeer();
        manager.offer(List.of(record(peer, "/ip4/127.0.0.5/tcp/" + peer.boundAddress().getPort())), Origin.DISCV5);
        Thread.sleep(3_000); // rounds come every second while short of peers
        assertThat(node.connection(peer.peerId())).as("dialled the loopback address a record named").isEmpty();
        assertThat(count("waku.peer.manager.addresses.refused", "reason", "loopback")).isEqualTo(1);
        assertThat(count("waku.peer.store.offers", "outcome", "filtered")).isEqualTo(1);
        assertThat(manager.candidates()).isEmpty();
    }

    @Test
    void aPublicNodeDoesNotDialARecordThatNamesAPrivateAddress() {
        Host node = host("127.0.0.1", List.of(Multiaddr.parse("/ip4/1.2.3.4/tcp/60000")));
        PeerManager manager = manager(node, FAST, name -> CompletableFuture.failedFuture(new IllegalStateException()));
        Enr internal = EnrBuilder.of(PrivateKey.generateSecp256k1())
                .announce(List.of(Multiaddr.parse("/ip4/10.11.12.13/tcp/60000"), Multiaddr.parse("/ip4/192.168.0.7/tcp/8000/ws")))
                .build(1);
        manager.offer(List.of(internal), Origin.PEER_EXCHANGE);
        assertThat(count("waku.peer.manager.addresses.refused", "reason", "private")).isEqualTo(2);
        assertThat(count("waku.peer.store.offers", "outcome", "filtered")).isEqualTo(1);
        assertThat(manager.candidates()).as("kept for no dial").isEmpty();
        assertThat(count("waku.peers.dials", "outcome", "failed") + count("waku.peers.dials", "outcome", "timed_out"))
                .isZero();
    }

    @Test
    void aPublicNodeDoesNotDialANameThatResolvesToALoopbackAddress() throws Exception {
        Host node = host("127.0.0.1", List.of(Multiaddr.parse("/ip4/1.2.3.4/tcp/60000")));
        InetAddress loopback = InetAddress.getByName("127.0.0.5");
        PeerManager manager = manager(node, FAST, name -> CompletableFuture.completedFuture(List.of(loopback)));
        Host peer = relayPeer();
        // "localhost", so that the code before this change, which resolved names with the JDK's resolver, stays on
        // this machine too
        manager.offer(List.of(record(peer, "/dns4/localhost/tcp/" + peer.boundAddress().getPort())), Origin.DNS);
        Eventually.until(() -> count("waku.peer.manager.addresses.refused", "reason", "loopback") >= 1, WAIT,
                () -> "not refused; dials: " + registry.find("waku.peers.dials").counters());
        assertThat(node.connection(peer.peerId())).isEmpty();
        assertThat(count("waku.peers.dials", "outcome", "failed")).as("a name without an address to dial").isPositive();
    }

    /** The tests' networks: nodes on 127.0.0.x dial each other's loopback addresses and names as before. */
    @Test
    void aLoopbackNetworkStillDialsItsPeersByAddressAndByName() throws Exception {
        Host node = host("127.0.0.1", List.of());
        InetAddress at = InetAddress.getByName("127.0.0.5");
        PeerManager manager = manager(node, FAST, name -> name.equals("peer.test")
                ? CompletableFuture.completedFuture(List.of(at)) : CompletableFuture.failedFuture(new IllegalStateException()));
        Host byAddress = relayPeer();
        Host byName = relayPeer();
        manager.offer(List.of(record(byAddress, "/ip4/127.0.0.5/tcp/" + byAddress.boundAddress().getPort()),
                record(byName, "/dns4/peer.test/tcp/" + byName.boundAddress().getPort())), Origin.DISCV5);
        Eventually.until(() -> node.connection(byAddress.peerId()).isPresent() && node.connection(byName.peerId()).isPresent(),
                WAIT, () -> "connections: " + node.connections());
        assertThat(count("waku.peer.manager.addresses.refused", "reason", "loopback")).isZero();
    }
}
