package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.proto.ControlIDontWant;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDONTWANTs this node sends (gossipsub v1.2): the first copy of a message over the size threshold is announced
 * to the other mesh peers of its topic, so that they do not send it a copy it already has.
 */
class IDontWantAnnouncementTest {
    @RegisterExtension
    final Closer closer = new Closer();

    /** The node and two raw peers, A and B, both in its mesh of the topic. */
    private record Mesh(TestNode node, RawRelayPeer a, RawRelayPeer b) {
    }

    private Mesh mesh(RelayConfig config) {
        TestNode node = closer.keep(new TestNode(0, config, PrivateKey.generateEd25519()));
        RawRelayPeer a = closer.keep(new RawRelayPeer(1));
        RawRelayPeer b = closer.keep(new RawRelayPeer(2));
        RPC subscribe = RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true)
                .setTopicid(Messages.TOPIC)).build();
        for (RawRelayPeer peer : List.of(a, b)) {
            peer.connect(node.address());
            peer.send(subscribe);
        }
        Eventually.until("both peers in the node's mesh", () -> node.meshSize(Messages.TOPIC) == 2);
        return new Mesh(node, a, b);
    }

    private static RPC publish(WakuMessage message) {
        return RPC.newBuilder().addPublish(Message.newBuilder().setTopic(Messages.TOPIC)
                .setData(message.toByteString())).build();
    }

    private static ByteString id(WakuMessage message) throws NoSuchAlgorithmException {
        return ByteString.copyFrom(MessageDigest.getInstance("SHA-256").digest(message.toByteArray()));
    }

    private static boolean gotDontWant(RawRelayPeer peer, ByteString id) {
        return peer.received.stream().flatMap(r -> r.getControl().getIdontwantList().stream())
                .map(ControlIDontWant::getMessageIDsList).anyMatch(ids -> ids.contains(id));
    }

    private static boolean gotMessage(RawRelayPeer peer, WakuMessage message) {
        return peer.received.stream().flatMap(r -> r.getPublishList().stream())
                .anyMatch(m -> m.getData().equals(message.toByteString()));
    }

    @Test
    void aLargeMessageIsAnnouncedToTheOtherMeshPeersButNotToItsSender() throws Exception {
        Mesh m = mesh(TestNode.fastConfig());
        WakuMessage large = Messages.message(1, 1000);
        ByteString id = id(large);

        m.a().send(publish(large));

        Eventually.until("B told IDONTWANT for the message", () -> gotDontWant(m.b(), id));
        Eventually.until("B got the message itself", () -> gotMessage(m.b(), large));
        assertThat(gotDontWant(m.a(), id)).as("the sender is not told").isFalse();
    }

    @Test
    void aMessageOfAtMostTheThresholdIsNotAnnounced() throws Exception {
        Mesh m = mesh(TestNode.fastConfig());
        WakuMessage small = Messages.message(2, 100);
        assertThat(small.getSerializedSize()).isLessThanOrEqualTo(GossipParams.DEFAULTS.iDontWantMinBytes());

        m.a().send(publish(small));

        // the IDONTWANT goes out before the forwarded copy, on the same stream: once B has the copy, none is coming
        Eventually.until("B got the message", () -> gotMessage(m.b(), small));
        assertThat(gotDontWant(m.b(), id(small))).isFalse();
    }

    @Test
    void noMessageIsAnnouncedWithIDontWantOff() throws Exception {
        RelayConfig off = TestNode.fastConfig().toBuilder().gossip(TestNode.fastConfig().gossip().toBuilder()
                .iDontWantMinBytes(GossipParams.IDONTWANT_OFF).build()).build();
        Mesh m = mesh(off);
        WakuMessage large = Messages.message(3, 1000);

        m.a().send(publish(large));

        Eventually.until("B got the message", () -> gotMessage(m.b(), large));
        assertThat(gotDontWant(m.b(), id(large))).isFalse();
    }
}
