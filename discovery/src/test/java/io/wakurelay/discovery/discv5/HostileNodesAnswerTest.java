package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.discv5.Discv5Metrics.Drop;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.crypto.PrivateKey;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hostile discv5 peer, written here on the codec (the recipient's side of the handshake done by hand), answering our
 * FINDNODE with floods of NODES: more messages than any answer may have, more records than asked for, records at
 * distances not asked for. Our service keeps at most 16 records of the distances it asked and ends the request.
 */
class HostileNodesAnswerTest {

    private final SecureRandom random = new SecureRandom();

    @Test
    void aFloodOfNodesMessagesAndRecordsIsCutAndFiltered() throws Exception {
        PrivateKey hostileKey = PrivateKey.generateSecp256k1();
        try (LocalDiscv5Node ours = new LocalDiscv5Node(List.of());
             DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            socket.setSoTimeout(5_000);
            Enr hostileRecord = LocalDiscv5Node.recordAt(hostileKey, socket.getLocalPort(), 1);
            NodeEntry hostile = NodeEntry.of(hostileRecord).orElseThrow();
            // records at distance 256 from the hostile node (asked for) and at other distances (not asked for)
            List<byte[]> asked = new ArrayList<>();
            List<byte[]> notAsked = new ArrayList<>();
            while (asked.size() < 40 || notAsked.size() < 40) {
                Enr record = LocalDiscv5Node.recordAt(PrivateKey.generateSecp256k1(), 2000, 1);
                (NodeIds.logDistance(record.nodeId(), hostile.id()) == 256 ? asked : notAsked).add(record.encoded());
            }

            CompletableFuture<List<Enr>> answer = ours.service.findNode(hostile, List.of(256));
            Session session = acceptHandshake(socket, hostileKey, hostile.id(), ours.node().id());
            Message.FindNode findNode = (Message.FindNode) session.firstMessage;
            assertThat(findNode.distances()).containsExactly(256);
            // 8 NODES messages (the most an answer may have), each with 3 records asked for and 1 not: 24 asked for
            for (int i = 0; i < 8; i++) {
                List<byte[]> records = List.of(asked.get(3 * i), asked.get(3 * i + 1), asked.get(3 * i + 2),
                        notAsked.get(i));
                send(socket, session, ours, new Message.Nodes(findNode.requestId(), 8, records));
            }
            List<Enr> found = answer.get(5, TimeUnit.SECONDS);
            assertThat(found).hasSize(PendingRequests.MAX_RECORDS)
                    .allSatisfy(r -> assertThat(NodeIds.logDistance(r.nodeId(), hostile.id())).isEqualTo(256));

            // a second FINDNODE, over the session: answered by 30 messages announcing a total of 200
            CompletableFuture<List<Enr>> second = ours.service.findNode(hostile, List.of(256));
            DatagramPacket in = receive(socket);
            Packet packet = Packet.decode(Arrays.copyOf(in.getData(), in.getLength()), hostile.id());
            Message.FindNode again = (Message.FindNode) Message.decode(Discv5Crypto.aesGcmDecrypt(session.readKey,
                    packet.nonce(), packet.message(), packet.messageAd()));
            for (int i = 0; i < 30; i++) {
                send(socket, session, ours, new Message.Nodes(again.requestId(), 200, List.of(asked.get(i))));
            }
            assertThat(second.get(5, TimeUnit.SECONDS)).isEmpty(); // the first message already ends it
            assertThat(ours.metrics.droppedCount(Drop.INVALID)).isEqualTo(1);
            // the rest of the flood answers a request that ended: unsolicited, dropped
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (ours.metrics.droppedCount(Drop.UNSOLICITED) < 29 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(ours.metrics.droppedCount(Drop.UNSOLICITED)).isEqualTo(29);
            // and none of the records it sent entered the table (records met in answers are returned, never added)
            assertThat(ours.service.tableNodes()).extracting(NodeEntry::idHex).doesNotContainAnyElementsOf(
                    asked.stream().map(r -> NodeIds.hex(Enr.decode(r).nodeId())).toList());
        }
    }

    private static final class Session {
        byte[] writeKey;
        byte[] readKey;
        InetSocketAddress peer;
        Message firstMessage;
    }

    /** Answers our random packet with WHOAREYOU and reads the handshake, as a recipient does (discv5-theory). */
    private Session acceptHandshake(DatagramSocket socket, PrivateKey key, byte[] localId, byte[] peerId)
            throws Exception {
        DatagramPacket in = receive(socket);
        Packet first = Packet.decode(Arrays.copyOf(in.getData(), in.getLength()), localId);
        Packet whoareyou = Packet.whoareyou(bytes(16), first.nonce(), bytes(16), 0);
        reply(socket, whoareyou.encode(peerId), in);
        DatagramPacket second = receive(socket);
        Packet handshake = Packet.decode(Arrays.copyOf(second.getData(), second.getLength()), localId);
        HandshakeAuthdata auth = HandshakeAuthdata.decode(handshake.authdata());
        Enr record = Enr.decode(auth.record()); // enr-seq 0 asked for it
        assertThat(Discv5Crypto.idVerify(record.publicKey(), auth.idSignature(), whoareyou.challengeData(),
                auth.ephemeralKey(), localId)).isTrue();
        Discv5Crypto.SessionKeys keys = Discv5Crypto.deriveKeys(Discv5Crypto.ecdh(auth.ephemeralKey(), key.raw()),
                peerId, localId, whoareyou.challengeData());
        Session session = new Session();
        session.writeKey = keys.recipientKey();
        session.readKey = keys.initiatorKey();
        session.peer = (InetSocketAddress) second.getSocketAddress();
        session.firstMessage = Message.decode(Discv5Crypto.aesGcmDecrypt(keys.initiatorKey(), handshake.nonce(),
                handshake.message(), handshake.messageAd()));
        sessionSource = localId;
        return session;
    }

    private byte[] sessionSource;

    private void send(DatagramSocket socket, Session session, LocalDiscv5Node to, Message message) throws Exception {
        byte[] iv = bytes(16);
        byte[] nonce = bytes(12);
        Packet header = new Packet(iv, Packet.FLAG_ORDINARY, nonce, sessionSource, new byte[0]);
        byte[] sealed = Discv5Crypto.aesGcmEncrypt(session.writeKey, nonce, message.encode(), header.messageAd());
        byte[] datagram = new Packet(iv, Packet.FLAG_ORDINARY, nonce, sessionSource, sealed).encode(to.node().id());
        socket.send(new DatagramPacket(datagram, datagram.length, session.peer));
    }

    private static DatagramPacket receive(DatagramSocket socket) throws Exception {
        DatagramPacket packet = new DatagramPacket(new byte[Packet.MAX_SIZE], Packet.MAX_SIZE);
        socket.receive(packet);
        return packet;
    }

    private static void reply(DatagramSocket socket, byte[] bytes, DatagramPacket to) throws Exception {
        socket.send(new DatagramPacket(bytes, bytes.length, to.getSocketAddress()));
    }

    private byte[] bytes(int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }
}
