package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlIWant;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class MisbehaviourTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final Closer closer = new Closer();

    private static RPC subscribe() {
        return RawRelayPeer.subscribe();
    }

    private static RPC publish(ByteString data) {
        return RawRelayPeer.publish(data);
    }

    private static double score(TestNode node, RawRelayPeer peer) {
        return node.relay.peers().stream().filter(p -> p.peerId().equals(peer.host.peerId())).findFirst()
                .map(RelayPeer::score).orElse(Double.NaN);
    }

    private static double counter(TestNode node, String name, String tag, String value) {
        return node.counter(name, tag, value);
    }

    @Test
    void aSpammerOfInvalidMessagesIsGraylistedAndDisconnectedWhileHonestTrafficFlows() {
        TestNode victim = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        TestNode honest = closer.keep(new TestNode(1, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        honest.host.dial(victim.address()).block(WAIT);
        RawRelayPeer spammer = closer.keep(new RawRelayPeer(2));
        spammer.connect(victim.address());
        spammer.send(subscribe());
        Eventually.until(() -> victim.meshSize(Messages.TOPIC) >= 1);

        List<MessageHash> honestHashes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            WakuMessage invalid = Messages.message(100 + i, 100).toBuilder().clearContentTopic().build();
            spammer.send(publish(invalid.toByteString()));
            honestHashes.add(honest.relay.publish(Messages.TOPIC, Messages.message(i, 500)).block(WAIT).hash());
        }

        Eventually.until(() -> !spammer.connectedTo(victim.host));
        assertThat(counter(victim, "waku.relay.peer.disconnects", "reason", "graylisted")).isEqualTo(1);
        assertThat(counter(victim, "waku.relay.messages.invalid", "reason", "missing_content_topic")).isGreaterThanOrEqualTo(10);
        Eventually.until(() -> victim.received.keySet().containsAll(honestHashes));
        assertThat(honest.host.connection(victim.host.peerId())).isPresent();
    }

    @Test
    void aSpammerIsDisconnectedEvenWhenItsScoreDecaysAtTheVeryNextHeartbeat() {
        // scores decay at every heartbeat here, so a decay is always due when the spammer's penalty is first seen:
        // 11 invalid messages (-12,100) halve to -3,025, above the graylist threshold (-10,000), if the decay comes
        // first. Its later messages are ignored while it is graylisted, so nothing else would push it down again.
        ScoreParams d = ScoreParams.DEFAULTS;
        ScoreParams decayEachHeartbeat = new ScoreParams(d.gossipThreshold(), d.publishThreshold(), d.graylistThreshold(),
                Duration.ofMillis(10), d.decayToZero(), d.retainScore(), d.timeInMeshWeight(), d.timeInMeshQuantum(),
                d.timeInMeshCap(), d.firstMessageDeliveriesWeight(), d.firstMessageDeliveriesDecay(),
                d.firstMessageDeliveriesCap(), d.meshMessageDeliveriesWeight(), d.meshMessageDeliveriesDecay(),
                d.meshMessageDeliveriesCap(), d.meshMessageDeliveriesThreshold(), d.meshMessageDeliveriesWindow(),
                d.meshMessageDeliveriesActivation(), d.invalidMessageDeliveriesWeight(), d.invalidMessageDeliveriesDecay(),
                d.ipColocationFactorWeight(), d.ipColocationFactorThreshold(), d.behaviourPenaltyWeight(),
                d.behaviourPenaltyDecay());
        TestNode victim = closer.keep(new TestNode(0, TestNode.fastConfig().toBuilder().scoring(decayEachHeartbeat).build(),
                PrivateKey.generateEd25519()));
        RawRelayPeer spammer = closer.keep(new RawRelayPeer(1));
        spammer.connect(victim.address());
        spammer.send(subscribe());
        for (int i = 0; i < 30; i++) {
            spammer.send(publish(Messages.message(100 + i, 100).toBuilder().clearContentTopic().build().toByteString()));
        }

        Eventually.until(() -> !spammer.connectedTo(victim.host));
        assertThat(counter(victim, "waku.relay.peer.disconnects", "reason", "graylisted")).isEqualTo(1);
    }

    @Test
    void aCopyOfARejectedMessageCostsItsSenderAsMuchAsTheFirst() {
        TestNode node = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        RawRelayPeer first = closer.keep(new RawRelayPeer(1));
        RawRelayPeer second = closer.keep(new RawRelayPeer(2));
        for (RawRelayPeer p : List.of(first, second)) {
            p.connect(node.address());
            p.send(subscribe());
        }
        Eventually.until(() -> node.relay.peers().stream().filter(p -> p.topics().contains(Messages.TOPIC)).count() == 2);
        ByteString invalid = Messages.message(1, 100).toBuilder().clearContentTopic().build().toByteString();

        first.send(publish(invalid));
        Eventually.until(() -> counter(node, "waku.relay.messages.invalid", "reason", "missing_content_topic") == 1);
        second.send(publish(invalid));

        Eventually.until(() -> counter(node, "waku.relay.messages.invalid", "reason", "missing_content_topic") == 2);
        // P4 of one invalid message is -100 (-25 if a decay came between), as the first sender's
        assertThat(score(node, second)).as("the second sender is penalised").isLessThan(-20);
        assertThat(score(node, first)).isLessThan(-20);
        assertThat(counter(node, "libp2p.gossipsub.duplicate", null, null)).isZero();
        assertThat(node.received).isEmpty();
    }

    @Test
    void aMessageFarFromTheClockIsRelayedAsNwakuRelaysItAndItsForwarderNotPenalised() {
        TestNode node = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        RawRelayPeer forwarder = closer.keep(new RawRelayPeer(1));
        forwarder.connect(node.address());
        forwarder.send(subscribe());
        for (int i = 0; i < 20; i++) {
            long timestamp = i % 2 == 0 ? 1_000_000_000L : (System.currentTimeMillis() + 3_600_000L) * 1_000_000L;
            WakuMessage far = Messages.message(i, 100).toBuilder().setTimestamp(timestamp).build();
            forwarder.send(publish(far.toByteString()));
        }

        Eventually.until("the 20 messages accepted", () -> node.received.size() == 20);
        assertThat(node.registry.find("waku.relay.messages.invalid").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum()).isZero();
        assertThat(score(node, forwarder)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void aSignedMessageIsRejectedUnderStrictNoSign() {
        TestNode node = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        peer.send(RPC.newBuilder().addPublish(Message.newBuilder().setTopic(Messages.TOPIC)
                .setData(Messages.message(1, 10).toByteString()).setFrom(ByteString.copyFromUtf8("me"))
                .setSeqno(ByteString.copyFromUtf8("12345678"))).build());

        Eventually.until(() -> counter(node, "waku.relay.messages.invalid", "reason", "signed_message") == 1);
        assertThat(score(node, peer)).isLessThan(0);
        assertThat(node.received).isEmpty();
    }

    @Test
    void aGraftDuringBackoffIsPenalised() {
        TestNode node = closer.keep(new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519()));
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        peer.send(subscribe());
        ControlMessage graft = ControlMessage.newBuilder().addGraft(ControlGraft.newBuilder().setTopicID(Messages.TOPIC)).build();
        ControlMessage prune = ControlMessage.newBuilder().addPrune(ControlPrune.newBuilder().setTopicID(Messages.TOPIC)).build();
        peer.send(RPC.newBuilder().setControl(graft).build());
        peer.send(RPC.newBuilder().setControl(prune).build());
        for (int i = 0; i < 5; i++) {
            peer.send(RPC.newBuilder().setControl(graft).build());
        }

        Eventually.until(() -> score(node, peer) <= -250);
        Eventually.until(() -> peer.received.stream().anyMatch(r -> r.getControl().getPruneCount() > 0));
    }

    @Test
    void anIwantFloodForTheSameMessageIsPenalisedAndAnsweredOnlyAFewTimes() throws Exception {
        // The message must still be in the message cache when the IWANTs arrive: with fastConfig's 100 ms heartbeat
        // its 6 heartbeats of history are 600 ms, and a pause that long on a loaded machine (GC, scheduling) left
        // nothing to answer or penalise, so the score never fell. The default 1 s heartbeat keeps it for 6 s.
        TestNode node = closer.keep(new TestNode(0, RelayConfig.builder().build(), PrivateKey.generateEd25519()));
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        peer.send(subscribe());
        Eventually.until(() -> node.relay.peers().stream().anyMatch(p -> p.topics().contains(Messages.TOPIC)));
        WakuMessage message = Messages.message(7, 1000);
        node.relay.publish(Messages.TOPIC, message).block(WAIT);
        byte[] id = MessageDigest.getInstance("SHA-256").digest(message.toByteArray());
        // the published copy itself is not an answer to an IWANT: count from after its arrival
        Eventually.until(() -> peer.received.stream().anyMatch(r -> r.getPublishCount() > 0));
        int before = peer.received.size();
        for (int i = 0; i < 20; i++) {
            peer.send(RPC.newBuilder().setControl(ControlMessage.newBuilder()
                    .addIwant(ControlIWant.newBuilder().addMessageIDs(ByteString.copyFrom(id)))).build());
        }

        // past the gossip threshold its IWANTs are no longer even read
        Eventually.until(() -> score(node, peer) < node.relay.config().scoring().gossipThreshold(), Duration.ofSeconds(20),
                () -> "score " + score(node, peer) + ", received " + peer.received.size() + " RPCs, " + before + " before the IWANTs");
        long answers = peer.received.subList(before, peer.received.size()).stream().filter(r -> r.getPublishCount() > 0).count();
        assertThat(answers).isLessThanOrEqualTo(node.relay.config().gossip().gossipRetransmission());
    }
}
