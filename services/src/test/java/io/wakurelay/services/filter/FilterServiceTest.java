package io.wakurelay.services.filter;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.Messages;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.FilterSubscribeRequest;
import io.wakurelay.services.proto.FilterSubscribeRequest.FilterSubscribeType;
import io.wakurelay.services.proto.FilterSubscribeResponse;
import io.wakurelay.services.proto.MessagePush;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class FilterServiceTest {
    private static final String OTHER_CONTENT_TOPIC = "/wakurelay/1/other/proto";
    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    /** Node 0 serves filter; node 1 publishes on the mesh. */
    private ServiceNode[] mesh(FilterConfig config) {
        ServiceNode a = closer.keep(new ServiceNode(0, dir, ServiceNode.Options.none().withFilter(config)));
        ServiceNode b = closer.keep(new ServiceNode(1, dir, ServiceNode.Options.none()));
        a.connectRelay(b);
        return new ServiceNode[]{a, b};
    }

    private static List<MessageHash> publish(ServiceNode node, int from, int count, String contentTopic, int size) {
        List<MessageHash> hashes = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            hashes.add(node.publish(Messages.message(i, size, Messages.nowNanos(), contentTopic)));
        }
        return hashes;
    }

    private static List<MessageHash> hashes(List<MessagePush> pushes) {
        return pushes.stream().map(p -> Messages.hashOf(p.getPubsubTopic(), p.getWakuMessage())).toList();
    }

    private static double removed(ServiceNode node, FilterRemoval reason) {
        return node.registry.get("waku.filter.subscribers.removed").tag("reason", reason.label()).counter().count();
    }

    @Test
    void aSubscriberGetsEveryMessageOfItsContentTopicInOrderAndNothingAfterItUnsubscribes() {
        ServiceNode[] nodes = mesh(FilterConfig.DEFAULTS);
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));
        FilterSubscribeResponse subscribed = client.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC);
        assertThat(subscribed.getStatusCode()).isEqualTo(200);

        List<MessageHash> wanted = publish(nodes[1], 0, 20, ServiceNode.CONTENT_TOPIC, 1000);
        publish(nodes[1], 100, 5, OTHER_CONTENT_TOPIC, 1000);
        List<MessageHash> more = publish(nodes[1], 20, 5, ServiceNode.CONTENT_TOPIC, 1000);

        List<MessageHash> expected = new ArrayList<>(wanted);
        expected.addAll(more);
        Eventually.until(() -> client.received.size() >= expected.size(), () -> client.received.size() + " pushes");
        assertThat(hashes(client.received)).isEqualTo(expected);
        MessagePush first = client.received.get(0);
        assertThat(first.getPubsubTopic()).isEqualTo(ServiceNode.TOPIC);
        assertThat(first.getWakuMessage().getContentTopic()).isEqualTo(ServiceNode.CONTENT_TOPIC);

        FilterSubscribeResponse unsubscribed = client.request(nodes[0], FilterSubscribeType.UNSUBSCRIBE, ServiceNode.TOPIC,
                ServiceNode.CONTENT_TOPIC);
        assertThat(unsubscribed.getStatusCode()).isEqualTo(200);
        assertThat(nodes[0].filter.subscriberCount()).isZero();
        publish(nodes[1], 30, 5, ServiceNode.CONTENT_TOPIC, 1000);
        Eventually.holdsFor(Duration.ofSeconds(1), () -> client.received.size() == expected.size(),
                () -> client.received.size() + " pushes");
        assertThat(nodes[0].registry.get("waku.filter.pushes").counter().count()).isEqualTo(25);
        assertThat(removed(nodes[0], FilterRemoval.UNSUBSCRIBED)).isEqualTo(1);
    }

    @Test
    void pingAndUnsubscribeAreAnswered200ForASubscriberAnd404ForAnyoneElse() {
        ServiceNode[] nodes = mesh(FilterConfig.DEFAULTS);
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));

        assertThat(client.request(nodes[0], FilterSubscribeType.SUBSCRIBER_PING, null).getStatusCode()).isEqualTo(404);
        assertThat(client.request(nodes[0], FilterSubscribeType.UNSUBSCRIBE_ALL, null).getStatusCode()).isEqualTo(404);
        assertThat(client.request(nodes[0], FilterSubscribeType.UNSUBSCRIBE, ServiceNode.TOPIC, ServiceNode.CONTENT_TOPIC)
                .getStatusCode()).isEqualTo(404);

        assertThat(client.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC, OTHER_CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        assertThat(client.request(nodes[0], FilterSubscribeType.SUBSCRIBER_PING, null).getStatusCode()).isEqualTo(200);
        FilterSubscribeResponse notHeld = client.request(nodes[0], FilterSubscribeType.UNSUBSCRIBE, ServiceNode.TOPIC,
                "/wakurelay/1/never/proto");
        assertThat(notHeld.getStatusCode()).isEqualTo(404);
        assertThat(notHeld.getStatusDesc()).as("nwaku's words, which its REST passes on")
                .isEqualTo("peer has no subscriptions");
        FilterSubscribeResponse otherShard = client.request(nodes[0], FilterSubscribeType.UNSUBSCRIBE, "/waku/2/rs/0/6",
                ServiceNode.CONTENT_TOPIC);
        assertThat(otherShard.getStatusCode()).isEqualTo(404);
        assertThat(otherShard.getStatusDesc()).isEqualTo("peer has no subscriptions");
        assertThat(client.request(nodes[0], FilterSubscribeType.UNSUBSCRIBE_ALL, null).getStatusCode()).isEqualTo(200);
        assertThat(client.request(nodes[0], FilterSubscribeType.SUBSCRIBER_PING, null).getStatusCode()).isEqualTo(404);
        assertThat(nodes[0].registry.get("waku.filter.requests").tag("type", "SUBSCRIBER_PING").counter().count()).isEqualTo(3);
        assertThat(nodes[0].registry.get("waku.filter.errors").tag("type", "not_found").counter().count()).isEqualTo(6);
    }

    @Test
    void aSubscriptionThatIsNotRefreshedExpires() {
        ServiceNode[] nodes = mesh(FilterConfig.builder().subscriptionTimeout(Duration.ofMillis(600)).build());
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));
        assertThat(client.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        assertThat(nodes[0].filter.subscriberCount()).isEqualTo(1);

        Eventually.until(() -> nodes[0].filter.subscriberCount() == 0, Duration.ofSeconds(5), () -> "still subscribed");

        assertThat(removed(nodes[0], FilterRemoval.EXPIRED)).isEqualTo(1);
        assertThat(client.request(nodes[0], FilterSubscribeType.SUBSCRIBER_PING, null).getStatusCode()).isEqualTo(404);
    }

    @Test
    void requestsWithoutCriteriaWithTooManyOrInvalidTopicsOrOfAnUnknownTypeAreAnswered400() {
        ServiceNode[] nodes = mesh(FilterConfig.builder().maxContentTopicsPerRequest(3).build());
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));

        FilterSubscribeResponse noTopics = client.request(nodes[0], FilterSubscribeType.SUBSCRIBE, ServiceNode.TOPIC);
        assertThat(noTopics.getStatusCode()).isEqualTo(400);
        assertThat(noTopics.getStatusDesc()).isEqualTo("pubsub_topic and content_topics must both be given");
        assertThat(client.request(nodes[0], FilterSubscribeType.SUBSCRIBE, null, ServiceNode.CONTENT_TOPIC).getStatusCode())
                .isEqualTo(400);
        String[] four = IntStream.range(0, 4).mapToObj(i -> "/wakurelay/1/t" + i + "/proto").toArray(String[]::new);
        FilterSubscribeResponse tooMany = client.request(nodes[0], FilterSubscribeType.SUBSCRIBE, ServiceNode.TOPIC, four);
        assertThat(tooMany.getStatusCode()).isEqualTo(400);
        assertThat(tooMany.getStatusDesc()).isEqualTo("at most 3 content topics per request, got 4");
        // any other content topic is one, as nwaku takes it ("chat" is); NUL separates topics in the archive's keys
        assertThat(client.request(nodes[0], FilterSubscribeType.SUBSCRIBE, ServiceNode.TOPIC, "ch\0at").getStatusCode())
                .isEqualTo(400);
        FilterSubscribeResponse badTopic = client.request(nodes[0], FilterSubscribeType.SUBSCRIBE, "/not/a/topic",
                ServiceNode.CONTENT_TOPIC);
        assertThat(badTopic.getStatusCode()).isEqualTo(400);
        FilterSubscribeResponse unknownType = client.send(nodes[0], FilterSubscribeRequest.newBuilder().setRequestId("u")
                .setFilterSubscribeTypeValue(9).build());
        assertThat(unknownType.getStatusCode()).isEqualTo(400);
        assertThat(nodes[0].filter.subscriberCount()).isZero();
    }

    @Test
    void aSubscriptionOnAShardTheNodeDoesNotRelayIsTakenAsNwakuTakesItAndServedOnceTheNodeRelaysIt() {
        ServiceNode[] nodes = mesh(FilterConfig.DEFAULTS);
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));
        String shard = "/waku/2/rs/0/5";

        FilterSubscribeResponse notRelayed = client.request(nodes[0], FilterSubscribeType.SUBSCRIBE, shard,
                ServiceNode.CONTENT_TOPIC);
        assertThat(notRelayed.getStatusCode()).isEqualTo(200);
        assertThat(nodes[0].filter.subscribedCriteria().values())
                .containsExactly(List.of(List.of(shard, ServiceNode.CONTENT_TOPIC)));

        nodes[0].relay.subscribe(List.of(shard));
        nodes[1].relay.subscribe(List.of(shard));
        Eventually.until(() -> nodes[1].relay.mesh().getOrDefault(shard, List.of()).contains(nodes[0].host.peerId()),
                () -> "mesh of " + shard + ": " + nodes[1].relay.mesh());
        MessageHash sent = nodes[1].relay.publish(shard, Messages.message(1, 100, Messages.nowNanos(),
                ServiceNode.CONTENT_TOPIC)).block(Duration.ofSeconds(10)).hash();
        Eventually.until(() -> client.received.size() == 1, () -> client.received.size() + " pushes");
        assertThat(client.received.get(0).getPubsubTopic()).isEqualTo(shard);
        assertThat(hashes(client.received)).containsExactly(sent);
    }

    @Test
    void theThirtyFirstRequestOfAPeerWithinAMinuteIsRefused429InNwakusWords() {
        ServiceNode[] nodes = mesh(FilterConfig.DEFAULTS); // nwaku's default: 30 a minute
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));
        for (int i = 0; i < 30; i++) {
            assertThat(client.subscribe(nodes[0], "/wakurelay/1/t" + i + "/proto").getStatusCode())
                    .as("request %d", i + 1).isEqualTo(200);
        }
        FilterSubscribeResponse refused = client.subscribe(nodes[0], "/wakurelay/1/rate-limited/proto");
        assertThat(refused.getStatusCode()).isEqualTo(429);
        assertThat(refused.getStatusDesc()).isEqualTo("filter request rejected due rate limit exceeded");
        assertThat(refused.getRequestId()).isEqualTo("N/A");
        assertThat(nodes[0].filter.subscribedCriteria().values().iterator().next()).hasSize(30);
    }

    @Test
    void pastTheLimitsOnSubscribersAndOnCriteriaASubscribeIsAnswered503() {
        ServiceNode[] nodes = mesh(FilterConfig.builder().maxPeersToServe(1).maxCriteriaPerPeer(2).build());
        FilterTestClient first = closer.keep(new FilterTestClient(10, true));
        FilterTestClient second = closer.keep(new FilterTestClient(11, true));

        assertThat(first.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        FilterSubscribeResponse full = second.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC);
        assertThat(full.getStatusCode()).isEqualTo(503);
        assertThat(full.getStatusDesc()).isEqualTo("this node serves at most 1 filter subscribers");

        assertThat(first.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC, OTHER_CONTENT_TOPIC).getStatusCode())
                .as("a criterion held already does not count twice").isEqualTo(200);
        FilterSubscribeResponse tooMany = first.subscribe(nodes[0], "/wakurelay/1/third/proto");
        assertThat(tooMany.getStatusCode()).isEqualTo(503);
        assertThat(nodes[0].filter.subscriptions().criteriaCount()).isEqualTo(2);
    }

    @Test
    void aSubscriberThatTakesNoPushesHasThemDroppedAndThenLosesItsSubscriptionWithoutMemoryGrowing() {
        ServiceNode[] nodes = mesh(FilterConfig.builder().pushQueueMessages(16).pushQueueBytes(200 * 1024)
                .maxDropsBeforeRemoval(8).build());
        FilterTestClient stuck = closer.keep(new FilterTestClient(10, true));
        stuck.stall();
        FilterTestClient healthy = closer.keep(new FilterTestClient(11, true));
        assertThat(stuck.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        assertThat(healthy.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);

        // 80 × 20 kB: more than the stream's 256 KiB credit and the 200 KiB queue together; in batches that the
        // healthy subscriber takes before the next
        List<MessageHash> published = new ArrayList<>();
        for (int batch = 0; batch < 8; batch++) {
            published.addAll(publish(nodes[1], batch * 10, 10, ServiceNode.CONTENT_TOPIC, 20_000));
            Eventually.until(() -> healthy.received.size() == published.size(), () -> healthy.received.size() + " pushes");
        }

        Eventually.until(() -> removed(nodes[0], FilterRemoval.STUCK) == 1, () -> "drops: "
                + nodes[0].registry.get("waku.filter.push.drops").counter().count());
        assertThat(nodes[0].registry.get("waku.filter.push.drops").counter().count()).isGreaterThanOrEqualTo(8);
        assertThat(stuck.received).isEmpty();
        assertThat(nodes[0].filter.subscriberCount()).as("the healthy subscriber stays").isEqualTo(1);
        assertThat(hashes(healthy.received)).isEqualTo(published);
    }

    @Test
    void aSubscriberLosesItsSubscriptionWhenItDisconnectsOrDoesNotAcceptPushes() {
        ServiceNode[] nodes = mesh(FilterConfig.DEFAULTS);
        FilterTestClient leaving = new FilterTestClient(10, true);
        assertThat(leaving.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        leaving.close();
        Eventually.until(() -> nodes[0].filter.subscriberCount() == 0, () -> "still subscribed");
        assertThat(removed(nodes[0], FilterRemoval.DISCONNECTED)).isEqualTo(1);

        FilterTestClient deaf = closer.keep(new FilterTestClient(11, false));
        assertThat(deaf.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        publish(nodes[1], 0, 1, ServiceNode.CONTENT_TOPIC, 100);
        Eventually.until(() -> nodes[0].filter.subscriberCount() == 0, () -> "still subscribed");
        assertThat(removed(nodes[0], FilterRemoval.PUSH_REFUSED)).isEqualTo(1);
    }

    @Test
    void aMessagePublishedByThisNodeOrArrivingOnTheMeshIsPushedOnceEach() {
        ServiceNode[] nodes = mesh(FilterConfig.DEFAULTS);
        FilterTestClient client = closer.keep(new FilterTestClient(10, true));
        assertThat(client.subscribe(nodes[0], ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);
        WakuMessage own = Messages.message(1, 10, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC);

        MessageHash local = nodes[0].publish(own);
        nodes[1].publish(own); // the same message again, from the mesh: a duplicate

        Eventually.until(() -> !client.received.isEmpty(), () -> "no push");
        Eventually.holdsFor(Duration.ofMillis(500), () -> client.received.size() == 1, () -> client.received.size() + " pushes");
        assertThat(hashes(client.received)).containsExactly(local);
    }
}
