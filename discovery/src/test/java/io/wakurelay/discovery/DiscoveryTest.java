package io.wakurelay.discovery;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.enr.WakuCapabilities.Capability;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.testkit.Closer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Discovery's door: the node's record, what the peer exchange server is given, and a start that fails cleanly. */
class DiscoveryTest {
    private static final int CLUSTER = 0;

    @RegisterExtension
    final Closer closer = new Closer();
    @TempDir
    Path dir;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Host host(String ip) {
        return closer.keep(Host.start(HostConfig.builder().listenAddress(new InetSocketAddress(ip, 0))
                .handshakeTimeout(Duration.ofSeconds(5)).build(), PrivateKey.generateSecp256k1(),
                new SimpleMeterRegistry()));
    }

    private Discovery start(DiscoveryConfig config, Host host, List<String> topics) {
        return closer.keep(Discovery.start(config, host, InetAddress.getLoopbackAddress(), dir, CLUSTER, topics,
                (peer, numPeers) -> Mono.just(List.of()), port -> port, registry));
    }

    @Test
    void theNodesRecordNamesTheProtocolsItsHostServesAndTheShardsItRelays() {
        Host host = host("127.0.0.1");
        for (String protocol : List.of("/vac/waku/relay/2.0.0", "/vac/waku/store-query/3.0.0",
                "/vac/waku/peer-exchange/2.0.0-alpha1")) {
            host.handle(protocol, stream -> (Stream s, ByteBuf data) -> data.release());
        }

        Enr record = start(DiscoveryConfig.DEFAULTS, host, List.of("/waku/2/rs/0/3", "/waku/2/rs/0/1",
                "/waku/2/rs/5/2", "/waku/2/default-waku/proto")).record();

        assertThat(record.peerId()).isEqualTo(host.peerId());
        assertThat(record.waku2().orElseThrow().capabilities()).containsExactlyInAnyOrder(Capability.RELAY,
                Capability.STORE);
        RelayShards shards = record.relayShards().orElseThrow();
        assertThat(shards.cluster()).isEqualTo(CLUSTER);
        assertThat(shards.shards()).as("of the cluster relayed only").containsExactlyInAnyOrder(1, 3);
        assertThat(record.udp()).as("no discv5, no udp").isEmpty();
        assertThat(dir.resolve("enr")).exists();
    }

    @Test
    void connectedPeersRecordsAreServedAndPeerExchangeFindsCountedButNoOtherRecordOrRequester() {
        Host ours = host("127.0.0.2");
        Host dns = host("127.0.0.3");
        Host px = host("127.0.0.4");
        Host requester = host("127.0.0.5");
        Enr given = record(host("127.0.0.6"));
        for (Host peer : List.of(dns, px, requester)) {
            ours.dial(peer.listenAddresses().get(0)).block(Duration.ofSeconds(10));
        }
        Discovery discovery = start(DiscoveryConfig.DEFAULTS.toBuilder().staticRecords(List.of(given)).build(), ours,
                List.of("/waku/2/rs/0/0"));

        discovery.connected(record(dns), Origin.DNS);
        discovery.connected(record(px), Origin.PEER_EXCHANGE);
        discovery.connected(record(requester), Origin.DISCV5);
        discovery.dialFailed(record(host("127.0.0.7")), Origin.PEER_EXCHANGE);
        discovery.dialFailed(record(host("127.0.0.8")), Origin.DNS);

        List<Enr> served = discovery.recordsFor(requester.peerId(), 60).stream().map(Enr::decode).toList();
        assertThat(served).as("the static peer is not connected; the requester's own is left out")
                .containsExactlyInAnyOrder(record(dns), record(px));
        assertThat(registry.get("waku.px.records").tag("outcome", "connected").counter().count()).isEqualTo(1);
        assertThat(registry.get("waku.px.records").tag("outcome", "dial_failed").counter().count()).isEqualTo(1);
        assertThat(registry.get("waku.px.cache.records").gauge().value()).isEqualTo(4);
    }

    @Test
    void aStartThatCannotBindDiscv5LeavesNoMeterBehind() throws Exception {
        Host host = host("127.0.0.1");
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            DiscoveryConfig config = DiscoveryConfig.DEFAULTS.toBuilder().discv5(Discv5DiscoveryConfig.DEFAULTS
                    .toBuilder().enabled(true).udpPort(taken.getLocalPort()).build()).build();

            assertThatThrownBy(() -> start(config, host, List.of())).hasMessageContaining("cannot bind discv5");
            assertThat(registry.getMeters()).isEmpty();
        }
    }

    @Test
    void closingRemovesTheMeters() {
        Discovery discovery = Discovery.start(DiscoveryConfig.DEFAULTS, host("127.0.0.1"),
                InetAddress.getLoopbackAddress(), dir, CLUSTER, List.of(), (peer, numPeers) -> Mono.just(List.of()),
                port -> port, registry);
        assertThat(registry.find("waku.discv5.lookups").meters()).isNotEmpty();
        assertThat(registry.find("waku.dnsdisc.discovered").meters()).isNotEmpty();
        discovery.close();
        assertThat(registry.getMeters()).isEmpty();
    }

    private static Enr record(Host host) {
        return EnrBuilder.of(host.identity()).announce(List.of(host.listenAddresses().get(0).withoutPeerId()))
                .shards(RelayShards.of(CLUSTER, List.of(0))).build(1);
    }
}
