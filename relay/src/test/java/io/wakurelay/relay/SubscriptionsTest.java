package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionsTest {
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aSubscriptionOfManyTopicsReachesEachPeerInOneRpc() {
        TestNode node = new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519());
        closer.keep(node);
        RawRelayPeer peer = new RawRelayPeer(1);
        closer.keep(peer);
        peer.connect(node.address());
        Eventually.until(() -> peer.received.stream().anyMatch(r -> r.getSubscriptionsCount() > 0));
        int before = peer.received.size();

        Set<String> topics = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            topics.add("/waku/2/rs/0/" + (i + 1));
        }
        node.relay.subscribe(List.copyOf(topics));

        // a copy each time: the peer's list grows while it is read
        Eventually.until(() -> subscribed(after(peer, before)).containsAll(topics), Duration.ofSeconds(20),
                () -> "subscribed so far: " + subscribed(after(peer, before)).size());
        long rpcs = after(peer, before).stream()
                .filter(r -> r.getSubscriptionsList().stream().anyMatch(sub -> topics.contains(sub.getTopicid()))).count();
        assertThat(rpcs).as("RPCs carrying the 100 subscriptions of one call").isEqualTo(1);
    }

    /**
     * nwaku announces a subscription at once; a batch window after the call (20 ms, before) made a peer that published
     * right after the subscribe returned miss this node. The peer is known to have read the subscription once it read
     * a message this node published after subscribing (one stream, in order): its publish must then go to this node.
     */
    @Test
    void aPeerThatPublishesRightAfterTheSubscribeReturnedReachesTheSubscriber() {
        TestNode a = new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519());
        closer.keep(a);
        TestNode b = new TestNode(1, TestNode.fastConfig(), PrivateKey.generateEd25519());
        closer.keep(b);
        a.host.dial(b.address()).block(Duration.ofSeconds(10));
        Eventually.until("both know the other's topics", Duration.ofSeconds(20),
                () -> knows(a, Messages.TOPIC) && knows(b, Messages.TOPIC));
        String topic = "/waku/2/rs/0/5";

        a.relay.subscribe(List.of(topic));
        b.relay.subscribe(List.of(topic));
        PublishResult marker = b.relay.publish(Messages.TOPIC, Messages.message(1, 100)).block();
        // polled closely: the old batch window was 20 ms, and a poll every 10 ms would let part of it pass
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!a.received.containsKey(marker.hash()) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(50_000);
        }
        assertThat(a.received).as("A read B's message sent after B subscribed").containsKey(marker.hash());
        PublishResult published = a.relay.publish(topic, Messages.message(2, 100)).block();

        assertThat(published.relayedTo()).as("A's publish went to B, which subscribed before").isEqualTo(1);
        Eventually.until("B received it", Duration.ofSeconds(10), () -> b.received.containsKey(published.hash()));
    }

    @Test
    void heardFromCompletesOnceThePeersSubscriptionsAreKnown() {
        TestNode a = new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519());
        closer.keep(a);
        TestNode b = new TestNode(1, TestNode.fastConfig(), PrivateKey.generateEd25519());
        closer.keep(b);
        a.host.dial(b.address()).block(Duration.ofSeconds(10));

        a.relay.heardFrom(b.host.peerId()).block(Duration.ofSeconds(10));

        assertThat(knows(a, Messages.TOPIC)).as("A knows B's topics when heardFrom completes").isTrue();
        assertThat(a.relay.heardFrom(a.host.peerId()).block(Duration.ofSeconds(1)))
                .as("not a relay peer: at once").isNull();
    }

    private static boolean knows(TestNode node, String topic) {
        return node.relay.peers().stream().anyMatch(p -> p.topics().contains(topic));
    }

    private static List<RPC> after(RawRelayPeer peer, int before) {
        List<RPC> all = List.copyOf(peer.received);
        return all.subList(before, all.size());
    }

    private static Set<String> subscribed(List<RPC> rpcs) {
        Set<String> topics = new HashSet<>();
        rpcs.forEach(r -> r.getSubscriptionsList().stream().filter(RPC.SubOpts::getSubscribe).forEach(sub -> topics.add(sub.getTopicid())));
        return topics;
    }

    @Test
    void theNodeLimitsItsOwnTopicsAsItLimitsItsPeers() {
        RelayConfig config = TestNode.fastConfig().toBuilder().maxTopics(3).build();
        TestNode node = new TestNode(0, config, PrivateKey.generateEd25519());
        closer.keep(node);
        node.relay.subscribe(List.of("/waku/2/rs/0/1", "/waku/2/rs/0/2"));

        assertThatThrownBy(() -> node.relay.subscribe(List.of("/waku/2/rs/0/3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 3 pubsub topics");
        assertThatThrownBy(() -> node.relay.subscribe(List.of("/not/a/topic"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(node.relay.subscriptions()).hasSize(3);
    }

    @Test
    void aPeerThatSubscribesToTooManyTopicsIsPenalisedForEachExtraOne() {
        RelayConfig config = TestNode.fastConfig().toBuilder().maxTopics(4).build();
        TestNode node = new TestNode(0, config, PrivateKey.generateEd25519());
        closer.keep(node);
        RawRelayPeer peer = new RawRelayPeer(1);
        closer.keep(peer);
        peer.connect(node.address());
        RPC.Builder many = RPC.newBuilder();
        for (int i = 0; i < 10; i++) {
            many.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid("/waku/2/rs/0/" + i));
        }
        peer.send(many.build());

        Eventually.until(() -> node.relay.peers().stream().anyMatch(p -> p.topics().size() == 4 && p.score() < 0));
    }
}
