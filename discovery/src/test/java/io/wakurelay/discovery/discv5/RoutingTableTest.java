package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RoutingTableTest {

    private static final byte[] LOCAL = NodeIds.of(PrivateKey.generateSecp256k1().publicKey().raw());

    @Test
    void aFullBucketKeepsItsNodesAndQueuesABoundedNumberOfReplacements() {
        RoutingTable table = new RoutingTable(LOCAL);
        List<NodeEntry> far = nodesAtDistance(256, 16 + RoutingTable.REPLACEMENTS + 3);
        List<RoutingTable.Added> outcomes = new ArrayList<>();
        far.forEach(n -> outcomes.add(table.add(n)));
        assertThat(outcomes.subList(0, 16)).containsOnly(RoutingTable.Added.ADDED);
        assertThat(outcomes.subList(16, far.size())).containsOnly(RoutingTable.Added.REPLACEMENT);
        assertThat(table.size()).isEqualTo(16);
        assertThat(table.atDistances(List.of(256), 100)).containsExactlyElementsOf(far.subList(0, 16));

        // the first node fails its liveness check: the newest replacement takes its place
        assertThat(table.remove(far.get(0).id())).isTrue();
        assertThat(table.size()).isEqualTo(16);
        assertThat(table.get(far.get(far.size() - 1).id())).isPresent();
        assertThat(table.get(far.get(0).id())).isEmpty();
        // the oldest replacements were dropped when the list was full
        assertThat(table.record(far.get(16).id())).isEmpty();
    }

    @Test
    void refusesItselfAndKeepsTheNewerRecordOfANode() {
        RoutingTable table = new RoutingTable(LOCAL);
        PrivateKey key = PrivateKey.generateSecp256k1();
        NodeEntry v1 = NodeEntry.of(LocalDiscv5Node.recordAt(key, 1000, 1)).orElseThrow();
        NodeEntry v2 = NodeEntry.of(LocalDiscv5Node.recordAt(key, 1000, 2)).orElseThrow();
        assertThat(table.add(v2)).isEqualTo(RoutingTable.Added.ADDED);
        assertThat(table.add(v1)).isEqualTo(RoutingTable.Added.UPDATED);
        assertThat(table.record(v1.id()).map(Enr::seq)).contains(2L);
        byte[] selfId = LOCAL.clone();
        assertThat(NodeIds.logDistance(selfId, LOCAL)).isZero();
    }

    @Test
    void closestSortsByXorDistance() {
        RoutingTable table = new RoutingTable(LOCAL);
        List<NodeEntry> nodes = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            NodeEntry node = NodeEntry.of(LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), 1000 + i, 1))
                    .orElseThrow();
            if (table.add(node) == RoutingTable.Added.ADDED) {
                nodes.add(node);
            }
        }
        byte[] target = nodes.get(3).id();
        List<NodeEntry> closest = table.closest(target, 5);
        assertThat(closest.get(0)).isEqualTo(nodes.get(3));
        for (int i = 1; i < closest.size(); i++) {
            assertThat(NodeIds.compareDistance(target, closest.get(i - 1).id(), closest.get(i).id())).isNegative();
        }
    }

    @Test
    void randomIdsLieAtTheAskedDistance() {
        SecureRandom random = new SecureRandom();
        Random pick = new Random(7);
        for (int i = 0; i < 2000; i++) {
            int distance = 1 + pick.nextInt(256);
            assertThat(NodeIds.logDistance(LOCAL, NodeIds.randomAtDistance(LOCAL, distance, random)))
                    .isEqualTo(distance);
        }
    }

    private static List<NodeEntry> nodesAtDistance(int distance, int count) {
        List<NodeEntry> out = new ArrayList<>();
        while (out.size() < count) {
            Enr record = LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), 1000 + out.size(), 1);
            if (NodeIds.logDistance(record.nodeId(), LOCAL) == distance) {
                out.add(NodeEntry.of(record).orElseThrow());
            }
        }
        return out;
    }
}
