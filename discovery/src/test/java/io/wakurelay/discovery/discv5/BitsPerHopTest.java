package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.p2p.crypto.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nim-eth's bitsPerHop: with 1 (nwaku's default) one bucket per log distance; with b above 1 the buckets far from us
 * are divided as nim-eth's tree of buckets ends up split, and hold 2^s times as many nodes.
 */
class BitsPerHopTest {

    private static final byte[] LOCAL = NodeIds.of(PrivateKey.generateSecp256k1().publicKey().raw());

    @Test
    void theBucketsSplitWhereNimEthSplitsThem() {
        RoutingTable one = new RoutingTable(LOCAL, 10, 2, 1);
        for (int d = 1; d <= 256; d++) {
            assertThat(one.splitBits(d)).isZero();
        }
        RoutingTable five = new RoutingTable(LOCAL, 10, 2, 5);
        // depth k = 257 - d is split down to the next multiple of 5
        assertThat(five.splitBits(256)).isEqualTo(4); // depth 1 -> 5: 16 buckets
        assertThat(five.splitBits(255)).isEqualTo(3); // depth 2 -> 5
        assertThat(five.splitBits(252)).isZero(); // depth 5
        assertThat(five.splitBits(251)).isEqualTo(4); // depth 6 -> 10
        assertThat(five.splitBits(2)).isZero(); // depth 255 -> 255
        assertThat(five.splitBits(1)).isZero(); // depth 256: no bits left
        RoutingTable two = new RoutingTable(LOCAL, 10, 2, 2);
        assertThat(two.splitBits(256)).isEqualTo(1);
        assertThat(two.splitBits(255)).isZero();
    }

    @Test
    void moreBitsPerHopKeepMoreNodesFarAway() {
        List<NodeEntry> nodes = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            nodes.add(NodeEntry.of(LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), 10000 + i, 1))
                    .orElseThrow());
        }
        RoutingTable one = new RoutingTable(LOCAL, 10, 2, 1);
        RoutingTable five = new RoutingTable(LOCAL, 10, 2, 5);
        nodes.forEach(one::add);
        nodes.forEach(five::add);
        // about 300 of the 600 are at distance 256: 16 buckets of 16 with b = 5, one with b = 1
        assertThat(one.atDistances(List.of(256), 1000)).hasSize(RoutingTable.BUCKET_SIZE);
        assertThat(five.atDistances(List.of(256), 1000)).hasSizeGreaterThan(4 * RoutingTable.BUCKET_SIZE);
        assertThat(five.size()).isGreaterThan(one.size());
        // every node kept is found again, and removal works in the divided buckets
        for (NodeEntry node : five.all()) {
            assertThat(five.get(node.id())).contains(node);
        }
        NodeEntry first = five.all().get(0);
        assertThat(five.remove(first.id())).isTrue();
        assertThat(five.get(first.id())).isEmpty();
        // FINDNODE answers are still at most what is asked for
        assertThat(five.atDistances(List.of(256, 255), 16)).hasSize(16);
    }
}
