package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.discovery.discv5.Discv5Metrics.Drop;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Real discv5 services on 127.0.0.1 talking to each other: handshake, PING, FINDNODE, lookups, bad input. */
class Discv5ServiceTest {

    @Test
    void pingShakesHandsAndBothSidesKeepTheSession() throws Exception {
        try (LocalDiscv5Node a = new LocalDiscv5Node(List.of()); LocalDiscv5Node b = new LocalDiscv5Node(List.of())) {
            Message.Pong pong = a.service.ping(b.node()).get(5, TimeUnit.SECONDS);
            assertThat(pong.enrSeq()).isEqualTo(1);
            assertThat(pong.recipientPort()).isEqualTo(a.service.localAddress().getPort());
            assertThat(pong.recipientIp()).containsExactly(127, 0, 0, 1);
            // B learned A's record from the handshake (it had none: enr-seq 0 asked for it) and put A in its table
            assertThat(b.service.tableNodes()).extracting(NodeEntry::idHex).containsExactly(a.node().idHex());
            // the second ping goes over the session: no new handshake
            a.service.ping(b.node()).get(5, TimeUnit.SECONDS);
            assertThat(a.metrics.droppedCount(Drop.BAD_HANDSHAKE)).isZero();
            assertThat(a.service.sessionCount()).isEqualTo(1);
            assertThat(b.service.sessionCount()).isEqualTo(1);
            // and B can ask A over the same session, the other way round
            assertThat(b.service.ping(a.node()).get(5, TimeUnit.SECONDS).enrSeq()).isEqualTo(1);
        }
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
        LocalDiscv5Node a = new LocalDiscv5Node(List.of());
        a.service.close();
        a.service.close(); // the node closes a component after shutting it down: its event loop is gone by then
        a.close();
    }

    @Test
    void findNodeAtDistanceZeroReturnsTheNodesOwnRecord() throws Exception {
        try (LocalDiscv5Node a = new LocalDiscv5Node(List.of()); LocalDiscv5Node b = new LocalDiscv5Node(List.of())) {
            List<Enr> records = a.service.findNode(b.node(), List.of(0)).get(5, TimeUnit.SECONDS);
            assertThat(records).containsExactly(b.record());
        }
    }

    @Test
    void aLookupFromOneBootstrapNodeFindsTheNodesItKnows() throws Exception {
        try (LocalDiscv5Node boot = new LocalDiscv5Node(List.of())) {
            // c and d at log distance 256 from boot: a lookup of c's id asks boot for that bucket and so learns both
            try (LocalDiscv5Node c = new LocalDiscv5Node(keyAtDistance(boot, 256), List.of(boot.record()), x -> x);
                 LocalDiscv5Node d = new LocalDiscv5Node(keyAtDistance(boot, 256), List.of(boot.record()), x -> x)) {
                // c and d ping boot at start: boot has them in its table once their handshakes are through
                awaitTableSize(boot, 2);
                try (LocalDiscv5Node a = new LocalDiscv5Node(List.of(boot.record()))) {
                    List<Enr> found = a.service.lookup(c.node().id()).get(10, TimeUnit.SECONDS);
                    assertThat(found).contains(boot.record(), c.record(), d.record());
                    assertThat(found).doesNotContain(a.record());
                    // the nodes that answered are in a's table now
                    assertThat(a.service.tableNodes()).extracting(NodeEntry::idHex).contains(boot.node().idHex());
                }
            }
        }
    }

    static PrivateKey keyAtDistance(LocalDiscv5Node from, int distance) {
        while (true) {
            PrivateKey key = PrivateKey.generateSecp256k1();
            if (NodeIds.logDistance(NodeIds.of(key.publicKey().raw()), from.node().id()) == distance) {
                return key;
            }
        }
    }

    @Test
    void aLargeNodesAnswerIsSplitIntoPacketsWithinTheLimitAndCutAtSixteen() throws Exception {
        try (LocalDiscv5Node a = new LocalDiscv5Node(List.of(), c -> c.toBuilder().livenessInterval(Duration.ofHours(1)).build());
             LocalDiscv5Node b = new LocalDiscv5Node(List.of())) {
            // 20 records at log distance 256 from a (half of all ids are): more than one packet can carry
            List<Enr> far = new ArrayList<>();
            while (far.size() < 20) {
                PrivateKey key = PrivateKey.generateSecp256k1();
                Enr record = LocalDiscv5Node.recordAt(key, 1 + far.size(), 1);
                if (NodeIds.logDistance(record.nodeId(), a.node().id()) == 256) {
                    far.add(record);
                }
            }
            a.service.addNodes(far);
            awaitTableSize(a, 16);
            List<Enr> records = b.service.findNode(a.node(), List.of(256)).get(5, TimeUnit.SECONDS);
            assertThat(records).hasSize(16).allSatisfy(r -> assertThat(far).contains(r));
            assertThat(NodesPacking.pack(new byte[8], records.stream().map(Enr::encoded).toList())).hasSizeGreaterThan(1)
                    .allSatisfy(m -> assertThat(m.encode().length + 16 + 23 + 32 + 16).isLessThanOrEqualTo(1280));
        }
    }

    @Test
    void aNodeThatDoesNotAnswerTimesOut() throws Exception {
        try (LocalDiscv5Node a = new LocalDiscv5Node(List.of());
             DatagramSocket silent = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            Enr record = LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), silent.getLocalPort(), 1);
            assertThatThrownBy(() -> a.service.ping(NodeEntry.of(record).orElseThrow()).get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
        }
    }

    @Test
    void garbageUnsolicitedAndFloodedPacketsAreCountedAndDropped() throws Exception {
        // the flood from another address than b's: the rate limit is per address, whatever the port
        try (LocalDiscv5Node a = new LocalDiscv5Node(List.of(), c -> c.toBuilder().packetsPerSecond(20).build());
             LocalDiscv5Node b = new LocalDiscv5Node(List.of());
             DatagramSocket socket = new DatagramSocket(0, java.net.InetAddress.getByName("127.0.0.2"))) {
            InetSocketAddress to = a.service.localAddress();
            send(socket, new byte[100], to); // not masked for a: protocol id check fails
            // a WHOAREYOU nobody asked for
            send(socket, Packet.whoareyou(new byte[16], new byte[12], new byte[16], 0).encode(a.node().id()), to);
            awaitCount(a, Drop.INVALID, 1);
            awaitCount(a, Drop.UNSOLICITED, 1);
            for (int i = 0; i < 200; i++) {
                send(socket, new byte[100], to);
            }
            awaitCount(a, Drop.RATE_LIMITED, 100);
            // a still serves others
            assertThat(b.service.ping(a.node()).get(5, TimeUnit.SECONDS).enrSeq()).isEqualTo(1);
        }
    }

    @Test
    void aHandshakeSignedByAnotherKeyIsRefused() throws Exception {
        // b claims a's record of another node: its id-signature cannot verify against that record's key
        try (LocalDiscv5Node a = new LocalDiscv5Node(List.of()); LocalDiscv5Node b = new LocalDiscv5Node(List.of())) {
            Enr stolen = LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), b.service.localAddress().getPort(), 1);
            b.setRecord(stolen);
            assertThatThrownBy(() -> b.service.ping(a.node()).get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat(a.metrics.droppedCount(Drop.BAD_HANDSHAKE)).isEqualTo(1);
            assertThat(a.service.tableSize()).isZero();
        }
    }

    private static void send(DatagramSocket socket, byte[] bytes, InetSocketAddress to) throws Exception {
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    static void awaitTableSize(LocalDiscv5Node node, int size) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (node.service.tableSize() < size && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(node.service.tableSize()).isGreaterThanOrEqualTo(size);
    }

    private static void awaitCount(LocalDiscv5Node node, Drop drop, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (node.metrics.droppedCount(drop) < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(node.metrics.droppedCount(drop)).isGreaterThanOrEqualTo(count);
    }
}
