package io.wakurelay.discovery.discv5;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.EnrBuilder;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.enr.WakuCapabilities;
import io.wakurelay.discovery.enr.WakuCapabilities.Capability;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** nwaku's shardingPredicate: which records a lookup found are offered to the peer manager, and what is counted. */
class Discv5DiscoveryTest {
    private static final int CLUSTER = 1;
    private static final List<Integer> OUR_SHARDS = List.of(0, 2);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Discv5Metrics metrics = new Discv5Metrics(registry);

    @AfterEach
    void close() {
        metrics.close();
    }

    /** A record of a relay node at a TCP address, in {@code cluster} on {@code shards}; a cluster below 0: none. */
    private static EnrBuilder node(int cluster, List<Integer> shards) {
        EnrBuilder builder = EnrBuilder.of(PrivateKey.generateSecp256k1())
                .announce(List.of(Multiaddr.parse("/ip4/192.0.2.7/tcp/60000")))
                .capabilities(WakuCapabilities.of(Set.of(Capability.RELAY)));
        return cluster < 0 ? builder : builder.shards(RelayShards.of(cluster, shards));
    }

    private boolean wanted(Enr record, List<Integer> ours) {
        return Discv5Discovery.wanted(record, CLUSTER, ours, metrics);
    }

    private double errors(String type) {
        return registry.get("waku.discv5.errors").tag("type", type).counter().count();
    }

    @Test
    void aRelayNodeOfOneOfOurShardsIsWanted() {
        assertThat(wanted(node(CLUSTER, List.of(2, 5)).build(1), OUR_SHARDS)).isTrue();
    }

    @Test
    void otherShardsAnotherClusterOrNoServiceAreNotAndAreCounted() {
        assertThat(wanted(node(CLUSTER, List.of(1, 3)).build(1), OUR_SHARDS)).isFalse();
        assertThat(wanted(node(7, List.of(0)).build(1), OUR_SHARDS)).isFalse();
        assertThat(wanted(node(CLUSTER, List.of(0)).capabilities(new WakuCapabilities(0)).build(1), OUR_SHARDS))
                .as("a waku2 field with no bit set serves nothing").isFalse();
        assertThat(wanted(EnrBuilder.of(PrivateKey.generateSecp256k1())
                .announce(List.of(Multiaddr.parse("/ip4/192.0.2.7/tcp/60000")))
                .shards(RelayShards.of(CLUSTER, List.of(0))).build(1), OUR_SHARDS)).as("no waku2 field").isFalse();
        assertThat(errors("other_shards")).isEqualTo(4);
    }

    @Test
    void aRecordWithoutShardsIsNotWantedByANodeOfShardsAndIsCounted() {
        assertThat(wanted(node(-1, List.of()).build(1), OUR_SHARDS)).isFalse();
        assertThat(errors("NoShardInfo")).isEqualTo(1);
    }

    @Test
    void aRecordWithoutATcpOrWebSocketAddressIsNotWantedAndIsCounted() {
        Enr discv5Only = EnrBuilder.of(PrivateKey.generateSecp256k1()).udpPort(9000)
                .capabilities(WakuCapabilities.of(Set.of(Capability.RELAY)))
                .shards(RelayShards.of(CLUSTER, List.of(0))).build(1);
        assertThat(wanted(discv5Only, OUR_SHARDS)).isFalse();
        assertThat(errors("no_address")).isEqualTo(1);
    }

    @Test
    void aNodeOfNoStaticShardWantsAnyRecordOfItsClusterOrWithoutShards() {
        assertThat(wanted(node(CLUSTER, List.of(9)).build(1), List.of())).isTrue();
        assertThat(wanted(node(-1, List.of()).build(1), List.of())).isTrue();
        assertThat(wanted(node(7, List.of(0)).build(1), List.of())).isFalse();
    }
}
