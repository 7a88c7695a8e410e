package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.relay.proto.RPC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionsTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void aBurstOfSubscribesReachesEachPeerInOneRpc() {
        TestNode node = new TestNode(0, TestNode.fastConfig(), PrivateKey.generateEd25519());
        open.add(node);
        RawRelayPeer peer = new RawRelayPeer(1);
        open.add(peer);
        peer.connect(node.address());
        Eventually.until(() -> peer.received.stream().anyMatch(r -> r.getSubscriptionsCount() > 0));
        int before = peer.received.size();

        for (int i = 0; i < 100; i++) {
            node.relay.subscribe(List.of("/waku/2/rs/0/" + (i + 1)));
        }

        Eventually.until(() -> subscriptions(peer.received.subList(before, peer.received.size())) == 100);
        long rpcs = peer.received.subList(before, peer.received.size()).stream().filter(r -> r.getSubscriptionsCount() > 0).count();
        assertThat(rpcs).as("RPCs carrying the 100 subscriptions").isLessThanOrEqualTo(3);
    }

    private static int subscriptions(List<RPC> rpcs) {
        return rpcs.stream().mapToInt(RPC::getSubscriptionsCount).sum();
    }

    @Test
    void theNodeLimitsItsOwnTopicsAsItLimitsItsPeers() {
        RelayConfig config = TestNode.fastConfig().toBuilder().maxTopics(3).build();
        TestNode node = new TestNode(0, config, PrivateKey.generateEd25519());
        open.add(node);
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
        open.add(node);
        RawRelayPeer peer = new RawRelayPeer(1);
        open.add(peer);
        peer.connect(node.address());
        RPC.Builder many = RPC.newBuilder();
        for (int i = 0; i < 10; i++) {
            many.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid("/waku/2/rs/0/" + i));
        }
        peer.send(many.build());

        Eventually.until(() -> node.relay.peers().stream().anyMatch(p -> p.topics().size() == 4 && p.score() < 0));
    }
}
