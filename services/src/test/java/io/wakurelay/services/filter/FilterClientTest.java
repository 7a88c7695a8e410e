package io.wakurelay.services.filter;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.Messages;
import io.wakurelay.services.RawExchange;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.filter.FilterRequestException.Kind;
import io.wakurelay.services.proto.MessagePush;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FilterClientTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();
    private final List<WakuMessage> pushed = new CopyOnWriteArrayList<>();
    private final MeterRegistry registry = new SimpleMeterRegistry();

    /** Node 0 serves filter; node 1 publishes on the mesh. */
    private ServiceNode[] mesh() {
        ServiceNode a = closer.keep(new ServiceNode(0, dir, ServiceNode.Options.none().withFilter(FilterConfig.DEFAULTS)));
        ServiceNode b = closer.keep(new ServiceNode(1, dir, ServiceNode.Options.none()));
        a.connectRelay(b);
        return new ServiceNode[]{a, b};
    }

    private Host clientHost;

    private io.wakurelay.p2p.multiaddr.Multiaddr clientAddress() {
        return clientHost.listenAddresses().get(0);
    }

    private FilterClient client(ServiceNode service, Duration refresh) {
        Host host = closer.keep(RawExchange.clientHost(10));
        clientHost = host;
        FilterClientConfig config = FilterClientConfig.builder().serviceNode(service.address()).refreshInterval(refresh).build();
        return closer.keep(FilterClient.start(config, host, (topic, m) -> pushed.add(m), registry));
    }

    private double requests(String type, String outcome) {
        return registry.get("waku.filter.client.requests").tag("type", type).tag("outcome", outcome).counter().count();
    }

    @Test
    void aSubscriptionBringsTheMessagesOfItsContentTopicAndUnsubscribingEndsThem() {
        ServiceNode[] nodes = mesh();
        FilterClient client = client(nodes[0], Duration.ofMinutes(1));
        client.subscribe(ServiceNode.TOPIC, List.of(ServiceNode.CONTENT_TOPIC)).block(WAIT);
        assertThat(client.criteria()).isEqualTo(1);
        client.ping().block(WAIT);

        nodes[1].publish(Messages.message(1, 100, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC));
        nodes[1].publish(Messages.message(2, 100, Messages.nowNanos(), "/wakurelay/1/other/proto"));
        nodes[1].publish(Messages.message(3, 100, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC));
        Eventually.until(() -> pushed.size() == 2, () -> pushed.size() + " pushes");
        assertThat(pushed).allMatch(m -> m.getContentTopic().equals(ServiceNode.CONTENT_TOPIC));

        client.unsubscribe(ServiceNode.TOPIC, List.of(ServiceNode.CONTENT_TOPIC)).block(WAIT);
        assertThat(client.criteria()).isZero();
        nodes[1].publish(Messages.message(4, 100, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC));
        Eventually.holdsFor(Duration.ofMillis(500), () -> pushed.size() == 2, () -> pushed.size() + " pushes");
        assertThatThrownBy(() -> client.ping().block(WAIT)).isInstanceOfSatisfying(FilterRequestException.class,
                e -> assertThat(e.kind()).as("the service node holds nothing of this node").isEqualTo(Kind.NOT_FOUND));
        assertThat(requests("SUBSCRIBE", "success")).isEqualTo(1);
        assertThat(requests("SUBSCRIBER_PING", "not_found")).isEqualTo(1);
        assertThat(registry.get("waku.filter.client.pushes").tag("outcome", "accepted").counter().count()).isEqualTo(2);
    }

    /** The service node forgets every subscription when it restarts: the next refresh ping fails and they are sent again. */
    @Test
    void subscriptionsAreSentAgainWhenTheServiceNodeLostThem() {
        ServiceNode[] nodes = mesh();
        FilterClient client = client(nodes[0], Duration.ofMillis(200));
        client.subscribe(ServiceNode.TOPIC, List.of(ServiceNode.CONTENT_TOPIC)).block(WAIT);
        nodes[0].filter.shutdown(Duration.ofSeconds(1)).block(); // the service forgets its subscribers
        FilterService restarted = closer.keep(FilterService.start(FilterConfig.DEFAULTS, nodes[0].host, nodes[0].relay,
                new SimpleMeterRegistry()));
        Eventually.until(() -> restarted.subscriberCount() == 1, () -> "re-subscribed: " + restarted.subscriberCount());
        assertThat(registry.get("waku.filter.client.resubscriptions").counter().count()).isGreaterThanOrEqualTo(1);
    }

    private double pushes(String outcome) {
        return registry.get("waku.filter.client.pushes").tag("outcome", outcome).counter().count();
    }

    /**
     * Issue 43's N4: a peer this node did not subscribe through opens the push protocol and writes a push that matches
     * the held subscription. The stream is reset before it is read, and counted; nothing reaches the listener. (nwaku's
     * client takes a push from any peer.)
     */
    @Test
    void aPushFromAPeerThisNodeDidNotSubscribeThroughIsResetUnread() {
        ServiceNode[] nodes = mesh();
        FilterClient client = client(nodes[0], Duration.ofMinutes(1));
        client.subscribe(ServiceNode.TOPIC, List.of(ServiceNode.CONTENT_TOPIC)).block(WAIT);
        Host forger = closer.keep(RawExchange.clientHost(11));
        MessagePush forged = MessagePush.newBuilder().setPubsubTopic(ServiceNode.TOPIC)
                .setWakuMessage(Messages.message(1, 10, 1_000_000_000L, ServiceNode.CONTENT_TOPIC)).build();
        RawExchange.Result result = RawExchange.run(forger, clientAddress(), FilterConfig.PUSH_PROTOCOL_ID,
                RawExchange.frame(forged), true, WAIT);
        assertThat(result.resetCause()).as("the stream is reset").isNotNull();
        assertThat(pushes("not_service_peer")).isEqualTo(1);
        assertThat(pushes("unsolicited") + pushes("accepted")).as("nothing of it was read").isZero();
        assertThat(pushed).isEmpty();

        nodes[1].publish(Messages.message(2, 100, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC));
        Eventually.until(() -> pushed.size() == 1, () -> pushed.size() + " pushes from the service node");
    }

    /**
     * From the service node itself: a push of what this node did not subscribe to fills nothing; one that is not a
     * {@code MessagePush}, or larger than nwaku's push limit, ends its stream; one whose message a relay would refuse
     * (meta over 64 bytes) is dropped. Each is counted.
     */
    @Test
    void pushesThatWereNotAskedForOrAreBrokenTooLargeOrInvalidAreCountedAndNotTaken() {
        ServiceNode[] nodes = mesh();
        FilterClient client = client(nodes[0], Duration.ofMinutes(1));
        client.subscribe(ServiceNode.TOPIC, List.of(ServiceNode.CONTENT_TOPIC)).block(WAIT);
        Host service = nodes[0].host;
        MessagePush unasked = MessagePush.newBuilder().setPubsubTopic(ServiceNode.TOPIC)
                .setWakuMessage(Messages.message(1, 10, Messages.nowNanos(), "/wakurelay/1/other/proto")).build();
        byte[] two = new byte[2 * RawExchange.frame(unasked).length];
        System.arraycopy(RawExchange.frame(unasked), 0, two, 0, two.length / 2);
        System.arraycopy(RawExchange.frame(unasked), 0, two, two.length / 2, two.length / 2);
        RawExchange.run(service, clientAddress(), FilterConfig.PUSH_PROTOCOL_ID, two, true, WAIT);
        Eventually.until(() -> pushes("unsolicited") == 2, () -> pushes("unsolicited") + " unsolicited");

        WakuMessage metaTooLarge = Messages.message(2, 10, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC).toBuilder()
                .setMeta(com.google.protobuf.ByteString.copyFrom(new byte[65])).build();
        RawExchange.run(service, clientAddress(), FilterConfig.PUSH_PROTOCOL_ID, RawExchange.frame(MessagePush.newBuilder()
                .setPubsubTopic(ServiceNode.TOPIC).setWakuMessage(metaTooLarge).build()), true, WAIT);
        Eventually.until(() -> pushes("invalid") == 1, () -> pushes("invalid") + " invalid");

        RawExchange.Result broken = RawExchange.run(service, clientAddress(), FilterConfig.PUSH_PROTOCOL_ID,
                RawExchange.frame(new byte[]{(byte) 0xff, (byte) 0xff}), false, WAIT);
        assertThat(broken.resetCause()).as("the stream is reset").isNotNull();
        byte[] huge = RawExchange.frame(new byte[FilterClientConfig.DEFAULTS.maxPushBytes() + 1]);
        RawExchange.Result large = RawExchange.run(service, clientAddress(), FilterConfig.PUSH_PROTOCOL_ID,
                java.util.Arrays.copyOf(huge, 16), false, WAIT);
        assertThat(large.resetCause()).as("reset as soon as the length prefix is read").isNotNull();
        assertThat(pushes("malformed")).isEqualTo(1);
        assertThat(pushes("too_large")).isEqualTo(1);
        assertThat(pushes("not_service_peer")).isZero();
        assertThat(pushed).isEmpty();
    }

    /** A node that ended every subscription at its service node reads its pushes no more. */
    @Test
    void afterUnsubscribingAllTheServiceNodesPushesAreNoLongerRead() {
        ServiceNode[] nodes = mesh();
        FilterClient client = client(nodes[0], Duration.ofMinutes(1));
        client.subscribe(ServiceNode.TOPIC, List.of(ServiceNode.CONTENT_TOPIC)).block(WAIT);
        client.unsubscribeAll().block(WAIT);
        MessagePush late = MessagePush.newBuilder().setPubsubTopic(ServiceNode.TOPIC)
                .setWakuMessage(Messages.message(1, 10, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC)).build();
        RawExchange.run(nodes[0].host, clientAddress(), FilterConfig.PUSH_PROTOCOL_ID, RawExchange.frame(late), true, WAIT);
        assertThat(pushes("not_service_peer")).isEqualTo(1);
        assertThat(pushed).isEmpty();
    }

    @Test
    void moreContentTopicsThanNwakuTakesInOneRequestAreRefusedWithoutAsking() {
        ServiceNode[] nodes = mesh();
        FilterClient client = client(nodes[0], Duration.ofMinutes(1));
        List<String> topics = IntStream.range(0, 101).mapToObj(i -> "/app/1/t" + i + "/proto").toList();
        assertThatThrownBy(() -> client.subscribe(ServiceNode.TOPIC, topics).block(WAIT))
                .isInstanceOfSatisfying(FilterRequestException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.BAD_REQUEST);
                    assertThat(e.detail()).isEqualTo("exceeds maximum content topics: 100");
                });
        assertThat(nodes[0].registry.get("waku.filter.requests").tag("type", "SUBSCRIBE").counter().count()).isZero();
    }
}
