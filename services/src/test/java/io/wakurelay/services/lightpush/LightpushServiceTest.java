package io.wakurelay.services.lightpush;

import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.p2p.Host;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.Messages;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.RawExchange;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.services.proto.LightPushResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LightpushServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @TempDir
    Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Host client = RawExchange.clientHost(40);

    @AfterEach
    void close() throws Exception {
        client.close();
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private ServiceNode node(int index, LightpushConfig config) {
        ServiceNode node = new ServiceNode(index, dir, ServiceNode.Options.none().withLightpush(config));
        closeables.add(node);
        return node;
    }

    /** Node 0 serves lightpush; node 1 is its relay peer. */
    private ServiceNode[] twoNodes(LightpushConfig config) {
        ServiceNode a = node(0, config);
        ServiceNode b = node(1, LightpushConfig.DEFAULTS);
        a.connectRelay(b);
        return new ServiceNode[]{a, b};
    }

    private LightPushResponse push(ServiceNode node, LightPushRequest request) {
        RawExchange.Result result = RawExchange.run(client, node.address(), LightpushConfig.PROTOCOL_ID,
                RawExchange.frame(request), true, WAIT);
        assertThat(result.remoteClosed()).as("the server closes its side after the response").isTrue();
        try {
            return LightPushResponse.parseFrom(result.message());
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static LightPushRequest request(String id, WakuMessage message) {
        return LightPushRequest.newBuilder().setRequestId(id).setPubsubTopic(ServiceNode.TOPIC).setMessage(message).build();
    }

    private static WakuMessage message(int index, int size) {
        return Messages.message(index, size, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC);
    }


    @Test
    void aPushedMessageIsRelayedArchivedHereAndThereAndAnsweredWithItsRelayPeerCount() {
        ServiceNode[] nodes = twoNodes(LightpushConfig.DEFAULTS);
        WakuMessage message = message(1, 500);

        LightPushResponse response = push(nodes[0], request("p1", message));

        assertThat(response.getRequestId()).isEqualTo("p1");
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getRelayPeerCount()).isEqualTo(1);
        MessageHash hash = Messages.hashOf(ServiceNode.TOPIC, message);
        nodes[0].awaitArchived(hash);
        nodes[1].awaitArchived(hash);
        assertThat(nodes[0].registry.get("waku.lightpush.v3.messages").counter().count()).isEqualTo(1);
    }

    /** nwaku pushes any non-empty content topic (issue 32, item 4); it is relayed and archived at both ends. */
    @Test
    void aContentTopicThatIsNotFourPartIsPushedAsNwakuPushesIt() {
        ServiceNode[] nodes = twoNodes(LightpushConfig.DEFAULTS);
        WakuMessage message = message(8, 50).toBuilder().setContentTopic("Hello World!").build();

        LightPushResponse response = push(nodes[0], request("hello", message));

        assertThat(response.getStatusCode()).as(response.getStatusDesc()).isEqualTo(200);
        MessageHash hash = Messages.hashOf(ServiceNode.TOPIC, message);
        nodes[0].awaitArchived(hash);
        nodes[1].awaitArchived(hash);
    }

    @Test
    void withoutRelayPeersTheAnswerIs505AndNothingIsStoredSoThatARetryLaterCanSucceed() {
        ServiceNode alone = node(0, LightpushConfig.DEFAULTS);
        WakuMessage message = message(2, 100);

        LightPushResponse response = push(alone, request("p2", message));

        assertThat(response.getStatusCode()).isEqualTo(505);
        assertThat(response.getStatusDesc()).isEqualTo("no relay peers on " + ServiceNode.TOPIC);
        assertThat(response.hasRelayPeerCount()).isFalse();
        assertThat(alone.isArchived(Messages.hashOf(ServiceNode.TOPIC, message))).isFalse();

        ServiceNode peer = node(1, LightpushConfig.DEFAULTS);
        alone.connectRelay(peer);
        assertThat(push(alone, request("p3", message)).getStatusCode()).isEqualTo(200);
        assertThat(alone.registry.get("waku.lightpush.v3.errors").tag("type", "505").counter().count()).isEqualTo(1);
    }

    @Test
    void requestsThatCannotBeRelayedGetTheStatusNwakuGivesThem() {
        ServiceNode[] nodes = twoNodes(LightpushConfig.DEFAULTS);
        ServiceNode a = nodes[0];

        LightPushResponse otherTopic = push(a, request("t", message(3, 10)).toBuilder().setPubsubTopic("/waku/2/rs/0/7").build());
        assertThat(otherTopic.getStatusCode()).isEqualTo(421);
        assertThat(otherTopic.getStatusDesc()).startsWith("this node does not relay /waku/2/rs/0/7");

        LightPushResponse noTopic = push(a, request("t", message(4, 10)).toBuilder().clearPubsubTopic().build());
        assertThat(noTopic.getStatusCode()).isEqualTo(420);
        assertThat(noTopic.getStatusDesc()).contains("pubsub_topic is required");

        LightPushResponse noMessage = push(a, request("t", message(5, 10)).toBuilder().clearMessage().build());
        assertThat(noMessage.getStatusCode()).isEqualTo(400);

        LightPushResponse badContentTopic = push(a, request("t", message(6, 10).toBuilder().setContentTopic("ch\0at").build()));
        assertThat(badContentTopic.getStatusCode()).isEqualTo(420);
        assertThat(badContentTopic.getStatusDesc()).startsWith("invalid_content_topic");

        LightPushResponse stale = push(a, request("t", message(7, 10).toBuilder()
                .setTimestamp(Messages.nowNanos() - Duration.ofMinutes(5).toNanos()).build()));
        assertThat(stale.getStatusCode()).as("nwaku pushes a message whatever its timestamp; only archives judge it")
                .isEqualTo(200);

        LightPushResponse tooLarge = push(a, request("t", message(8, ProtocolLimits.DEFAULT_MAX_MESSAGE_SIZE)));
        assertThat(tooLarge.getStatusCode()).isEqualTo(413);
        assertThat(tooLarge.getStatusDesc()).startsWith("message_too_large");

        WakuMessage once = message(9, 10);
        assertThat(push(a, request("t", once)).getStatusCode()).isEqualTo(200);
        LightPushResponse twice = push(a, request("t", once));
        assertThat(twice.getStatusCode()).isEqualTo(420);
        assertThat(twice.getStatusDesc()).as("nwaku's words").isEqualTo("Dropping already-seen message");
    }

    @Test
    void aDuplicatePushedByTheLegacyRouteIsNotPublishedToAnyPeerAsNwakuSaysIt() {
        ServiceNode[] nodes = twoNodes(LightpushConfig.DEFAULTS);
        WakuMessage once = message(20, 10);

        assertThat(nodes[0].lightpush.pushLegacy(ServiceNode.TOPIC, once).block(WAIT).success()).isTrue();
        LegacyLightpushOutcome twice = nodes[0].lightpush.pushLegacy(ServiceNode.TOPIC, once).block(WAIT);

        assertThat(twice.success()).isFalse();
        assertThat(twice.info()).isEqualTo("not_published_to_any_peer");
    }

    @Test
    void aPeerPastItsRequestRateIsAnswered429() {
        ServiceNode[] nodes = twoNodes(LightpushConfig.builder().rateLimit(RateLimit.of(2, Duration.ofMinutes(1))).build());
        assertThat(push(nodes[0], request("a", message(10, 10))).getStatusCode()).isEqualTo(200);
        assertThat(push(nodes[0], request("b", message(11, 10))).getStatusCode()).isEqualTo(200);

        LightPushResponse third = push(nodes[0], request("c", message(12, 10)));

        assertThat(third.getStatusCode()).isEqualTo(429);
        assertThat(third.getRequestId()).isEqualTo("N/A");
    }

    @Test
    void theProtocolIsOfferedOnlyWhileTheServiceRuns() {
        ServiceNode a = node(0, LightpushConfig.DEFAULTS);
        assertThat(a.host.protocols()).contains(LightpushConfig.PROTOCOL_ID);
        a.lightpush.shutdown(Duration.ZERO).block(WAIT);
        assertThat(a.host.protocols()).doesNotContain(LightpushConfig.PROTOCOL_ID);
        assertThat(a.registry.find("waku.lightpush.v3.messages").counter()).as("meters removed").isNull();
    }

}
