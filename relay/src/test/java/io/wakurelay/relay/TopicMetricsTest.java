package io.wakurelay.relay;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** nwaku's per-topic and per-shard relay meters (docs/metrics.md, "Relay"): what moves them, and their label set. */
class TopicMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SHARD_0 = "/waku/2/rs/0/0";
    private static final String SHARD_1 = "/waku/2/rs/0/1";
    private static final String NAMED = "/waku/2/default-waku/proto";
    private static final String OTHER_CLUSTER = "/waku/2/rs/1/0";
    @RegisterExtension
    final Closer closer = new Closer();

    private TestNode node(int index, String... topics) {
        return closer.keep(new TestNode(index, TestNode.fastConfig().toBuilder().pubsubTopics(List.of(topics)).build(),
                PrivateKey.generateEd25519()));
    }

    private static RPC publish(String topic, WakuMessage message) {
        return RPC.newBuilder().addPublish(Message.newBuilder().setTopic(topic).setData(message.toByteString())).build();
    }

    /** nwaku's measure of a message's relay traffic: its bytes and its topic's. */
    private static long trafficBytes(String topic, WakuMessage message) {
        return message.getSerializedSize() + topic.getBytes(StandardCharsets.UTF_8).length;
    }

    private static double traffic(MeterRegistry registry, String topic, String type, String direction) {
        FunctionCounter c = registry.find("waku.relay.network.bytes").tags("topic", topic, "type", type, "direction", direction)
                .functionCounter();
        assertThat(c).as("waku_relay_network_bytes_total{topic=%s,type=%s,direction=%s}", topic, type, direction).isNotNull();
        return c.count();
    }

    private static double size(MeterRegistry registry, String which, String topic) {
        Gauge g = registry.find("waku.relay." + which + ".msg.bytes.per.shard").tag("shard", topic).gauge();
        assertThat(g).as("waku_relay_%s_msg_bytes_per_shard{shard=%s}", which, topic).isNotNull();
        return g.value();
    }

    private static double peersOnShard(MeterRegistry registry, int shard) {
        Gauge g = registry.find("waku.connected.peers.per.shard").tag("shard", Integer.toString(shard)).gauge();
        assertThat(g).as("waku_connected_peers_per_shard{shard=%s}", shard).isNotNull();
        return g.value();
    }

    private static Set<String> labelValues(MeterRegistry registry, String name, String tag) {
        Set<String> values = new TreeSet<>();
        for (Meter m : registry.find(name).meters()) {
            values.add(m.getId().getTag(tag));
        }
        return values;
    }

    @Test
    void aMessageOnAShardMovesThatShardsTrafficAndSizesOnlyWithOneDecodeAndOneHashAndNoCopy() {
        TestNode node = node(0, SHARD_0, SHARD_1);
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        WakuMessage small = Messages.message(1, 100);
        WakuMessage large = Messages.message(2, 300);
        peer.send(publish(SHARD_0, small));
        peer.send(publish(SHARD_0, small));
        peer.send(publish(SHARD_0, large));
        peer.send(publish("/waku/2/rs/0/9", Messages.message(3, 10)));

        Eventually.until(() -> node.registry.find("waku.relay.messages.invalid").tag("reason", "not_subscribed").counter().count() == 1);
        assertThat(node.received).hasSize(2);
        assertThat(traffic(node.registry, SHARD_0, "gross", "in")).as("every copy received, the duplicate too")
                .isEqualTo(2 * trafficBytes(SHARD_0, small) + trafficBytes(SHARD_0, large));
        assertThat(traffic(node.registry, SHARD_0, "net", "in")).as("the accepted messages")
                .isEqualTo(trafficBytes(SHARD_0, small) + trafficBytes(SHARD_0, large));
        assertThat(traffic(node.registry, SHARD_0, "net", "out")).as("the sender is the only peer: nothing forwarded").isZero();
        assertThat(size(node.registry, "total", SHARD_0)).isEqualTo(400);
        assertThat(size(node.registry, "max", SHARD_0)).isEqualTo(300);
        assertThat(size(node.registry, "avg", SHARD_0)).isEqualTo(200);
        for (String direction : List.of("gross/in", "net/in", "net/out")) {
            String[] d = direction.split("/");
            assertThat(traffic(node.registry, SHARD_1, d[0], d[1])).as("shard 1 %s", direction).isZero();
        }
        for (String which : List.of("total", "max", "avg")) {
            assertThat(size(node.registry, which, SHARD_1)).as("shard 1 %s", which).isZero();
        }
        assertThat(labelValues(node.registry, "waku.relay.network.bytes", "topic")).as("only this node's topics")
                .containsExactly(SHARD_0, SHARD_1);
        assertThat(node.counters.decodes()).as("one decode per accepted message").isEqualTo(2);
        assertThat(node.counters.hashes()).as("one hash per accepted message").isEqualTo(2);
        assertThat(node.counters.payloadCopies()).isZero();
    }

    @Test
    void aMessageThisNodePublishesCountsItsSizeAndEachCopySent() {
        TestNode node = node(0, SHARD_0, SHARD_1);
        RawRelayPeer peer = closer.keep(new RawRelayPeer(1));
        peer.connect(node.address());
        peer.send(RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(SHARD_0)).build());
        Eventually.until(() -> node.relay.peers().stream().anyMatch(p -> p.topics().contains(SHARD_0)));

        WakuMessage message = Messages.message(1, 250);
        PublishResult result = node.relay.publish(SHARD_0, message).block(WAIT);

        assertThat(result.relayedTo()).isEqualTo(1);
        assertThat(traffic(node.registry, SHARD_0, "net", "out")).isEqualTo(trafficBytes(SHARD_0, message));
        assertThat(traffic(node.registry, SHARD_0, "net", "in")).as("its own message is not inbound traffic").isZero();
        assertThat(size(node.registry, "total", SHARD_0)).isEqualTo(250);
        assertThat(size(node.registry, "max", SHARD_0)).isEqualTo(250);
        assertThat(size(node.registry, "total", SHARD_1)).isZero();
        assertThat(traffic(node.registry, SHARD_1, "net", "out")).isZero();
        assertThat(node.counters.hashes()).isEqualTo(1);
        assertThat(node.counters.payloadCopies()).isZero();
    }

    @Test
    void peersPerShardFollowTheConnectionsOfThePeersOnEachShard() {
        TestNode node = node(0, SHARD_0, SHARD_1, NAMED, OTHER_CLUSTER);
        assertThat(peersOnShard(node.registry, 0)).as("registered at start").isZero();
        assertThat(peersOnShard(node.registry, 1)).as("registered at start").isZero();
        assertThat(labelValues(node.registry, "waku.connected.peers.per.shard", "shard"))
                .as("the shards of this node's cluster only: a named topic or another cluster's shard has none")
                .containsExactly("0", "1");

        TestNode onShard0 = node(1, SHARD_0);
        onShard0.host.dial(node.address()).block(WAIT);
        Eventually.until(() -> peersOnShard(node.registry, 0) == 1);
        assertThat(peersOnShard(node.registry, 1)).isZero();

        TestNode onBoth = node(2, SHARD_0, SHARD_1);
        onBoth.host.dial(node.address()).block(WAIT);
        Eventually.until(() -> peersOnShard(node.registry, 0) == 2 && peersOnShard(node.registry, 1) == 1);

        onBoth.close();
        Eventually.until(() -> peersOnShard(node.registry, 0) == 1 && peersOnShard(node.registry, 1) == 0);
    }

    @Test
    void joiningATopicRegistersItsSeriesAtZeroAndLeavingItRemovesThem() {
        TestNode node = node(0, SHARD_0);
        String shard7 = "/waku/2/rs/0/7";
        assertThat(node.registry.find("waku.relay.total.msg.bytes.per.shard").tag("shard", shard7).gauge()).isNull();

        node.relay.subscribe(List.of(shard7));
        assertThat(size(node.registry, "total", shard7)).isZero();
        assertThat(traffic(node.registry, shard7, "gross", "in")).isZero();
        assertThat(peersOnShard(node.registry, 7)).isZero();

        node.relay.unsubscribe(List.of(shard7));
        assertThat(labelValues(node.registry, "waku.relay.network.bytes", "topic")).containsExactly(SHARD_0);
        assertThat(labelValues(node.registry, "waku.relay.max.msg.bytes.per.shard", "shard")).containsExactly(SHARD_0);
        assertThat(labelValues(node.registry, "waku.connected.peers.per.shard", "shard")).containsExactly("0");
    }

    @Test
    void joiningAndLeavingTopicsCountAsNimLibp2pCountsSubscriptions() {
        TestNode node = node(0, SHARD_0, SHARD_1);
        assertThat(count(node.registry, "libp2p.pubsub.subscriptions")).as("the topics joined at start").isEqualTo(2);
        assertThat(count(node.registry, "libp2p.pubsub.unsubscriptions")).isZero();

        node.relay.subscribe(List.of("/waku/2/rs/0/7", SHARD_0));
        assertThat(count(node.registry, "libp2p.pubsub.subscriptions")).as("a topic already relayed is not joined again")
                .isEqualTo(3);
        node.relay.unsubscribe(List.of("/waku/2/rs/0/7", SHARD_1));
        node.relay.unsubscribe(List.of(SHARD_1));
        assertThat(count(node.registry, "libp2p.pubsub.unsubscriptions")).as("a topic not relayed is not left again")
                .isEqualTo(2);
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.get(name).counter().count();
    }

    @Test
    void theMeshAndSubscriberGaugesOfATopicThisNodeLeftReadZero() {
        TestNode node = node(0, SHARD_0, SHARD_1);
        TestNode peer = node(1, SHARD_0, SHARD_1);
        peer.host.dial(node.address()).block(WAIT);
        Eventually.until(() -> topicGauge(node.registry, "mesh", SHARD_1) == 1 && topicGauge(node.registry, "gossipsub", SHARD_1) == 1);

        node.relay.unsubscribe(List.of(SHARD_1));

        Eventually.until(() -> topicGauge(node.registry, "mesh", SHARD_1) == 0 && topicGauge(node.registry, "gossipsub", SHARD_1) == 0);
        assertThat(topicGauge(node.registry, "mesh", SHARD_0)).as("the topic it still relays").isEqualTo(1);
    }

    private static double topicGauge(MeterRegistry registry, String which, String topic) {
        Gauge g = registry.find("libp2p.gossipsub.peers.per.topic." + which).tag("topic", topic).gauge();
        return g == null ? -1 : g.value();
    }
}
