package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TwoNodesRelayTest {
    private TestRelay a;
    private TestRelay b;

    @BeforeEach
    void connect() {
        b = TestRelay.start(TestRelay.config("node-b"));
        a = TestRelay.start(TestRelay.config("node-a").withStaticPeers(List.of(b.address())));
        Eventually.until("a and b connected", () -> a.connectedTo(b) && b.connectedTo(a));
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    @Test
    void aMessagePublishedOnOneNodeIsAcceptedOnceOnBoth() {
        PublishResult result = a.publish(TestMessages.message(1, 1000, TestMessages.nowNanos()));

        assertThat(result.duplicate()).isFalse();
        Eventually.until("b accepted it", () -> b.timesAccepted(result.hash()) == 1);
        Eventually.until("a handed its own publish to its consumer", () -> a.timesAccepted(result.hash()) == 1);
        // a copy counts as relayed when its write completed, which b may see before a does
        Eventually.until("a counted the copy it relayed", () -> a.counter("waku.relay.messages.relayed") == 1);
        assertThat(a.counter("waku.relay.messages.received", "source", "local")).isEqualTo(1);
        assertThat(b.counter("waku.relay.messages.received", "source", "peer")).isEqualTo(1);
        assertThat(b.counter("waku.relay.messages.accepted")).isEqualTo(1);
        assertThat(a.counters.encodes()).isEqualTo(1);
        assertThat(a.counters.hashes()).isEqualTo(1);
        assertThat(b.counters.decodes()).isEqualTo(1);
        assertThat(b.counters.hashes()).isEqualTo(1);
        assertThat(b.counters.payloadCopies()).isZero();
        assertThat(b.counter("waku.relay.messages.relayed")).as("never sent back to the sender").isZero();
    }

    @Test
    void publishingTheSameMessageAgainIsADuplicateAndNotRelayedAgain() {
        WakuMessage message = TestMessages.message(2, 100, TestMessages.nowNanos());
        MessageHash first = a.publish(message).hash();
        PublishResult again = a.publish(message);

        assertThat(again.duplicate()).isTrue();
        assertThat(again.hash()).isEqualTo(first);
        Eventually.until("b accepted it", () -> b.timesAccepted(first) == 1);
        assertThat(a.counter("waku.relay.messages.duplicate")).isEqualTo(1);
        Eventually.until("a counted the one copy it relayed", () -> a.counter("waku.relay.messages.relayed") == 1);
    }

    @Test
    void anInvalidPublishIsRefusedWithTheViolation() {
        WakuMessage noContentTopic = WakuMessage.newBuilder().setTimestamp(TestMessages.nowNanos()).build();

        assertThatThrownBy(() -> a.publish(noContentTopic)).isInstanceOf(ProtocolViolation.class)
                .hasMessageContaining("missing_content_topic");
        assertThat(a.counter("waku.relay.messages.invalid", "reason", "missing_content_topic")).isEqualTo(1);
    }

    @Test
    void subscriptionsChangedAtRunTimeAreAnnouncedAndRespected() {
        String other = "/waku/2/rs/0/7";
        b.relay.subscribe(Set.of(other));
        Eventually.until("a learnt that b subscribes to " + other,
                () -> a.relay.peers().get(0).topics().contains(other));

        // a does not subscribe to the topic, but relays what it publishes to the peers that do
        PublishResult onOther = a.relay.publish(other, TestMessages.message(3, 10, TestMessages.nowNanos())).block();
        Eventually.until("b accepted the message on " + other, () -> b.timesAccepted(onOther.hash()) == 1);
        assertThat(a.timesAccepted(onOther.hash())).as("a does not subscribe to it").isZero();

        b.relay.unsubscribe(Set.of(PUBSUB_TOPIC));
        Eventually.until("a learnt that b left " + PUBSUB_TOPIC,
                () -> !a.relay.peers().get(0).topics().contains(PUBSUB_TOPIC));
        MessageHash notForB = a.publish(TestMessages.message(4, 10, TestMessages.nowNanos())).hash();
        Eventually.until("a accepted its own", () -> a.timesAccepted(notForB) == 1);
        Eventually.until("a counted the copy it relayed", () -> a.counter("waku.relay.messages.relayed") == 1);
        assertThat(a.counter("waku.relay.messages.relayed")).as("only the message on " + other).isEqualTo(1);
        assertThat(b.timesAccepted(notForB)).isZero();
    }

    @Test
    void peersDescribeTheConnectionBothWays() {
        PeerInfo fromA = a.relay.peers().get(0);
        PeerInfo fromB = b.relay.peers().get(0);

        assertThat(fromA.nodeId()).isEqualTo("node-b");
        assertThat(fromA.direction()).isEqualTo("outbound");
        assertThat(fromA.listenAddress()).isEqualTo("127.0.0.1:" + b.address().getPort());
        assertThat(fromA.topics()).containsExactly(PUBSUB_TOPIC);
        assertThat(fromA.connectedSince()).isNotNull();
        assertThat(fromB.nodeId()).isEqualTo("node-a");
        assertThat(fromB.direction()).isEqualTo("inbound");
        assertThat(a.gauge("waku.relay.peers.connected", "direction", "outbound")).isEqualTo(1);
        assertThat(b.gauge("waku.relay.peers.connected", "direction", "inbound")).isEqualTo(1);
        assertThat(a.registry.find("waku.relay.peer.queue.messages").tags("peer", "node-b").gauge()).isNotNull();
        assertThat(a.counter("waku.relay.frames.received", "kind", "hello")).isEqualTo(1);
        assertThat(a.counter("waku.relay.bytes.received")).isPositive();
        Eventually.until("a's Hello counted as sent", () -> a.counter("waku.relay.frames.sent", "kind", "hello") == 1
                && a.counter("waku.relay.bytes.sent") > 0);
    }

    @Test
    void shutdownSaysGoodbyeAndTheOtherSideCountsIt() {
        a.relay.shutdown(java.time.Duration.ofSeconds(5)).block();

        Eventually.until("b saw a leave", () -> b.relay.peers().isEmpty());
        assertThat(b.counter("waku.relay.peer.disconnects", "reason", "shutdown")).isEqualTo(1);
        assertThat(b.registry.find("waku.relay.peer.queue.messages").tags("peer", "node-a").gauge())
                .as("per-peer meters removed").isNull();
        assertThatThrownBy(() -> a.publish(TestMessages.message(5, 10, TestMessages.nowNanos())))
                .isInstanceOf(IllegalStateException.class);
    }
}
