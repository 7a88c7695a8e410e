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
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionsTest {
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aBurstOfSubscribesReachesEachPeerInOneRpc() {
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
            node.relay.subscribe(List.of("/waku/2/rs/0/" + (i + 1)));
        }

        // a copy each time: the peer's list grows while it is read
        Eventually.until(() -> subscribed(after(peer, before)).containsAll(topics), Duration.ofSeconds(20),
                () -> "subscribed so far: " + subscribed(after(peer, before)).size());
        long rpcs = after(peer, before).stream()
                .filter(r -> r.getSubscriptionsList().stream().anyMatch(sub -> topics.contains(sub.getTopicid()))).count();
        // one RPC when the 100 calls fall in one 20 ms batch window; a loaded machine may split them over a few
        assertThat(rpcs).as("RPCs carrying the 100 subscriptions").isLessThanOrEqualTo(5);
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
