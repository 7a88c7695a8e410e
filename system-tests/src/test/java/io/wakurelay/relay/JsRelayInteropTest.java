package io.wakurelay.relay;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our relay against the JavaScript relays: a js-libp2p gossipsub peer configured as js-waku configures it, and a
 * js-waku relay node (@waku/sdk 0.0.27 with @waku/relay 0.0.14, cluster 0, mplex). Messages go both ways, their
 * RFC 14 hashes agree, and a mesh of our nodes and both JavaScript nodes delivers every message to every node
 * exactly once.
 */
@Tag("process")
class JsRelayInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final List<TestNode> nodes = new ArrayList<>();
    private final List<JsPeer> js = new ArrayList<>();
    private final MessageHasher hasher = new MessageHasher(new PathCounters());

    @AfterEach
    void close() {
        js.forEach(JsPeer::close);
        nodes.forEach(TestNode::close);
    }

    private TestNode node(int index) {
        TestNode n = new TestNode(index, TestNode.fastConfig(), PrivateKey.generateSecp256k1());
        nodes.add(n);
        return n;
    }

    private JsPeer gossipsubPeer() {
        JsPeer p = JsPeer.start(JsPeer.Script.PEER, List.of("--gossipsub", "--topics", Messages.TOPIC, "--timeout-s", "240"));
        js.add(p);
        return p;
    }

    private JsPeer wakuRelayNode() {
        JsPeer p = JsPeer.start(JsPeer.Script.RELAY_NODE, List.of("--cluster", "0", "--shards", "0", "--timeout-s", "240"));
        js.add(p);
        p.call("subscribe", Map.of("contentTopic", Messages.CONTENT_TOPIC), WAIT);
        return p;
    }

    private static String base64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private void awaitMesh(TestNode node, String peerId) {
        Eventually.until(() -> node.relay.mesh().getOrDefault(Messages.TOPIC, List.of()).contains(PeerId.parse(peerId)),
                WAIT, () -> node.relay.mesh().toString());
    }

    @Test
    void aJsGossipsubPeerAndOurNodeExchangeMessagesBothWays() {
        TestNode ours = node(0);
        JsPeer peer = gossipsubPeer();
        ours.host.dial(Multiaddr.parse(peer.addrs().get(0))).block(WAIT);
        awaitMesh(ours, peer.peerId());
        Eventually.until(() -> peer.call("mesh", Map.of("topic", Messages.TOPIC), WAIT).path("peers").toString()
                .contains(ours.host.peerId().toString()), WAIT, () -> "js mesh");

        WakuMessage fromJs = Messages.message(1, 2_000);
        peer.call("publish", Map.of("topic", Messages.TOPIC, "data", base64(fromJs.toByteArray())), WAIT);
        MessageHash expected = hasher.hash(Messages.TOPIC, fromJs);
        Eventually.until(() -> ours.received.containsKey(expected), WAIT, ours.received::toString);

        WakuMessage fromUs = Messages.message(2, 150_000);
        PublishResult published = ours.relay.publish(Messages.TOPIC, fromUs).block(WAIT);
        assertThat(published.relayedTo()).isEqualTo(1);
        JsonNode got = peer.awaitEvent("message", e -> true, WAIT);
        assertThat(Base64.getDecoder().decode(got.path("data").asText())).isEqualTo(fromUs.toByteArray());
        assertThat(peer.events("validation")).isEmpty();
        assertThat(ours.counters.payloadCopies()).isZero();
    }

    @Test
    void aJsWakuRelayNodeAndOurNodeExchangeMessagesBothWaysWithTheSameRfc14Hash() {
        TestNode ours = node(0);
        JsPeer waku = wakuRelayNode();
        ours.host.dial(Multiaddr.parse(waku.addrs().get(0))).block(WAIT);
        awaitMesh(ours, waku.peerId());

        JsonNode sent = waku.call("publish", Map.of("contentTopic", Messages.CONTENT_TOPIC,
                "payload", base64("hello from js-waku".getBytes())), WAIT);
        MessageHash jsHash = MessageHash.parse(sent.path("messageHash").asText());
        Eventually.until(() -> ours.received.containsKey(jsHash), WAIT, ours.received::toString);

        WakuMessage fromUs = Messages.message(3, 10_000);
        MessageHash ourHash = ours.relay.publish(Messages.TOPIC, fromUs).block(WAIT).hash();
        JsonNode got = waku.awaitEvent("message", e -> e.path("messageHash").asText().equals(ourHash.toString()), WAIT);
        assertThat(Base64.getDecoder().decode(got.path("payload").asText())).isEqualTo(fromUs.getPayload().toByteArray());
        assertThat(got.path("timestamp").asText()).isEqualTo(Long.toString(fromUs.getTimestamp()));
    }

    @Test
    void aMeshOfOurNodesAndBothJavaScriptRelaysDeliversEveryMessageToEveryNodeExactlyOnce() {
        TestNode a = node(0);
        TestNode b = node(1);
        TestNode c = node(2);
        JsPeer gossip = gossipsubPeer();
        JsPeer waku = wakuRelayNode();
        b.host.dial(a.address()).block(WAIT);
        c.host.dial(b.address()).block(WAIT);
        a.host.dial(Multiaddr.parse(gossip.addrs().get(0))).block(WAIT);
        c.host.dial(Multiaddr.parse(waku.addrs().get(0))).block(WAIT);
        // the two JavaScript relays are joined only through our nodes: gossip → a → b → c → waku
        awaitMesh(a, gossip.peerId());
        awaitMesh(c, waku.peerId());
        Eventually.until(() -> a.meshSize(Messages.TOPIC) >= 2 && b.meshSize(Messages.TOPIC) >= 2 && c.meshSize(Messages.TOPIC) >= 2,
                WAIT, () -> "meshes");

        Set<MessageHash> all = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            all.add(a.relay.publish(Messages.TOPIC, Messages.message(100 + i, 1_000)).block(WAIT).hash());
            all.add(c.relay.publish(Messages.TOPIC, Messages.message(200 + i, 1_000)).block(WAIT).hash());
            WakuMessage m = Messages.message(300 + i, 1_000);
            gossip.call("publish", Map.of("topic", Messages.TOPIC, "data", base64(m.toByteArray())), WAIT);
            all.add(hasher.hash(Messages.TOPIC, m));
            JsonNode sent = waku.call("publish", Map.of("contentTopic", Messages.CONTENT_TOPIC,
                    "payload", base64(("waku " + i).getBytes())), WAIT);
            all.add(MessageHash.parse(sent.path("messageHash").asText()));
        }

        for (TestNode n : List.of(a, b, c)) {
            Eventually.until(() -> n.received.keySet().containsAll(all), WAIT, () -> n.received.size() + " of " + all.size());
            n.received.values().forEach(count -> assertThat(count).hasValue(1));
        }
        Eventually.until(() -> distinctMessages(gossip, "data").size() >= all.size() - 10, WAIT, () -> "gossip peer");
        Eventually.until(() -> distinctMessages(waku, "messageHash").size() >= all.size() - 10, WAIT, () -> "waku node");
        // each JavaScript node got every message but its own, each exactly once
        assertThat(gossip.events("message")).hasSize(all.size() - 10);
        assertThat(waku.events("message")).hasSize(all.size() - 10);
    }

    @Test
    void aJsWakuRelayNodeOfAnotherClusterIsDisconnectedThroughMetadata() {
        TestNode ours = node(0);
        JsPeer other = JsPeer.start(JsPeer.Script.RELAY_NODE, List.of("--cluster", "1", "--shards", "0", "--timeout-s", "120"));
        js.add(other);
        ours.host.dial(Multiaddr.parse(other.addrs().get(0))).block(WAIT);

        Eventually.until(() -> ours.host.connections().isEmpty(), WAIT, () -> "still connected");
        assertThat(ours.registry.find("waku.relay.peer.disconnects").tag("reason", "cluster_mismatch").counter().count())
                .isEqualTo(1);
    }

    private static Map<String, Integer> distinctMessages(JsPeer peer, String field) {
        Map<String, Integer> seen = new HashMap<>();
        for (JsonNode e : peer.events("message")) {
            seen.merge(e.path(field).asText(), 1, Integer::sum);
        }
        return seen;
    }
}
