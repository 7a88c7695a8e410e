package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.p2p.crypto.PrivateKey;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * nwaku's discv5 IP limits (nim-eth's {@code TableIpLimits}): at most 2 entries of one public IP address in a bucket
 * and 10 in the table, nodes and replacements together, so one host with many node ids cannot fill the table.
 */
class RoutingTableIpLimitsTest {

    private static final byte[] LOCAL = NodeIds.of(PrivateKey.generateSecp256k1().publicKey().raw());
    private static final String ATTACKER = "203.0.113.7";

    private static NodeEntry node(String ip, int port) {
        return NodeEntry.of(LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), ip, port, 1)).orElseThrow();
    }

    private static List<NodeEntry> entriesOf(RoutingTable table, String ip) throws Exception {
        InetAddress address = InetAddress.getByName(ip);
        return table.all().stream().filter(n -> n.udp().getAddress().equals(address)).toList();
    }

    @Test
    void manyNodeIdsFromOnePublicAddressCannotFillTheTable() throws Exception {
        RoutingTable table = new RoutingTable(LOCAL);
        Map<RoutingTable.Added, Integer> outcomes = new TreeMap<>();
        List<NodeEntry> accepted = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            NodeEntry node = node(ATTACKER, 10000 + i);
            RoutingTable.Added added = table.add(node);
            outcomes.merge(added, 1, Integer::sum);
            if (added == RoutingTable.Added.ADDED || added == RoutingTable.Added.REPLACEMENT) {
                accepted.add(node);
            }
        }
        // half the random ids are at distance 256, a quarter at 255, ...: 2 each in the first buckets, then 10 in all
        assertThat(accepted).hasSize(RoutingTable.DEFAULT_TABLE_IP_LIMIT);
        assertThat(entriesOf(table, ATTACKER)).hasSize(RoutingTable.DEFAULT_TABLE_IP_LIMIT);
        assertThat(outcomes.get(RoutingTable.Added.BUCKET_IP_LIMIT)).isPositive();
        assertThat(outcomes.get(RoutingTable.Added.TABLE_IP_LIMIT)).isPositive();
        for (int distance = 1; distance <= 256; distance++) {
            assertThat(table.atDistances(List.of(distance), 100)).hasSizeLessThanOrEqualTo(2);
        }

        // nodes of other addresses still enter, the attacker's bucket included
        int distance256 = table.atDistances(List.of(256), 100).size();
        int honest = 0;
        for (int i = 0; honest < 16; i++) {
            NodeEntry node = node("198.51.100." + (1 + i % 250), 30303);
            if (NodeIds.logDistance(LOCAL, node.id()) == 256) {
                assertThat(table.add(node)).isIn(RoutingTable.Added.ADDED, RoutingTable.Added.REPLACEMENT);
                honest++;
            }
        }
        assertThat(table.atDistances(List.of(256), 100)).hasSize(RoutingTable.BUCKET_SIZE);
        assertThat(distance256).isEqualTo(2);

        // a node of the attacker that leaves frees its place in its bucket and in the table
        NodeEntry leaving = entriesOf(table, ATTACKER).stream()
                .filter(n -> NodeIds.logDistance(LOCAL, n.id()) == 255).findFirst().orElseThrow();
        assertThat(table.remove(leaving.id())).isTrue();
        assertThat(table.add(attackerAt(255))).isEqualTo(RoutingTable.Added.ADDED);
        assertThat(table.add(attackerAt(255))).isEqualTo(RoutingTable.Added.BUCKET_IP_LIMIT);
        assertThat(entriesOf(table, ATTACKER)).hasSize(RoutingTable.DEFAULT_TABLE_IP_LIMIT);
    }

    private static NodeEntry attackerAt(int distance) {
        while (true) {
            NodeEntry node = node(ATTACKER, 20000);
            if (NodeIds.logDistance(LOCAL, node.id()) == distance) {
                return node;
            }
        }
    }

    @Test
    void theLimitsCountReplacementsAndANodeThatMovesToAnotherAddress() throws Exception {
        RoutingTable table = new RoutingTable(LOCAL, 10, 3, 1);
        // fill bucket 256 with 16 nodes of distinct addresses
        List<PrivateKey> keys = new ArrayList<>();
        while (keys.size() < 16) {
            PrivateKey key = PrivateKey.generateSecp256k1();
            NodeEntry node = NodeEntry.of(LocalDiscv5Node.recordAt(key, "198.51.100." + (1 + keys.size()), 30303, 1))
                    .orElseThrow();
            if (NodeIds.logDistance(LOCAL, node.id()) == 256) {
                keys.add(key);
                assertThat(table.add(node)).isEqualTo(RoutingTable.Added.ADDED);
            }
        }
        // the attacker's replacements count too: 3 queued, the fourth refused
        List<RoutingTable.Added> outcomes = new ArrayList<>();
        while (outcomes.size() < 4) {
            outcomes.add(table.add(attackerAt(256)));
        }
        assertThat(outcomes).containsExactly(RoutingTable.Added.REPLACEMENT, RoutingTable.Added.REPLACEMENT,
                RoutingTable.Added.REPLACEMENT, RoutingTable.Added.BUCKET_IP_LIMIT);
        // a node of the bucket whose newer record names the attacker's address is refused, and keeps its old record
        NodeEntry moved = NodeEntry.of(LocalDiscv5Node.recordAt(keys.get(0), ATTACKER, 30303, 2)).orElseThrow();
        assertThat(table.add(moved)).isEqualTo(RoutingTable.Added.BUCKET_IP_LIMIT);
        assertThat(table.get(moved.id()).orElseThrow().enr().seq()).isEqualTo(1);
        // moving to an address of its own is an update
        NodeEntry elsewhere = NodeEntry.of(LocalDiscv5Node.recordAt(keys.get(0), "192.0.2.1", 30303, 2)).orElseThrow();
        assertThat(table.add(elsewhere)).isEqualTo(RoutingTable.Added.UPDATED);
        assertThat(table.get(moved.id()).orElseThrow().enr().seq()).isEqualTo(2);
        assertThat(table.size()).isEqualTo(16);
    }

    @Test
    void privateAndLoopbackAddressesAreNotLimited() {
        RoutingTable table = new RoutingTable(LOCAL);
        int added = 0;
        for (int i = 0; i < 200; i++) {
            RoutingTable.Added outcome = table.add(node(i % 2 == 0 ? "127.0.0.1" : "10.0.0.5", 10000 + i));
            assertThat(outcome).isNotIn(RoutingTable.Added.BUCKET_IP_LIMIT, RoutingTable.Added.TABLE_IP_LIMIT);
            if (outcome == RoutingTable.Added.ADDED) {
                added++;
            }
        }
        assertThat(added).isGreaterThan(RoutingTable.DEFAULT_TABLE_IP_LIMIT);
        assertThat(IpLimits.counted(InetAddressOf("192.168.1.1"))).isFalse();
        assertThat(IpLimits.counted(InetAddressOf("fd00::1"))).isFalse();
        assertThat(IpLimits.counted(InetAddressOf("fe80::1"))).isFalse();
        assertThat(IpLimits.counted(InetAddressOf("2001:db8::1"))).isTrue();
        assertThat(IpLimits.counted(InetAddressOf("8.8.8.8"))).isTrue();
    }

    private static InetAddress InetAddressOf(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
