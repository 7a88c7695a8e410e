package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.services.filter.FilterClientConfig;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nwaku's filter client REST API on an edge node whose {@code --filternode} is a full node of ours: subscriptions
 * made over REST on the edge bring the full node's messages to {@code GET /filter/v2/messages}, with nwaku's
 * request and response shapes, statuses and texts.
 */
class FilterRestTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CHAT = "/edge/1/chat/proto";
    private static final String NEWS = "/edge/1/news/proto";
    @TempDir
    Path dir;

    private WakuNode full(int port) {
        return WakuNode.start(TestNodes.local(dir.resolve("full")).archive(null)
                .host(TestNodes.host("127.0.0.1").listenAddress(new InetSocketAddress("127.0.0.1", port)).build()).build());
    }

    private WakuNode edge(WakuNode full) {
        NodeConfig defaults = NodeConfig.DEFAULTS;
        return WakuNode.start(TestNodes.local(dir.resolve("edge")).archive(null).host(TestNodes.host("127.0.0.3").build())
                .services(defaults.services().toBuilder().filterClient(FilterClientConfig.builder()
                        .serviceNode(full.multiaddr()).refreshInterval(Duration.ofMillis(300)).build()).build())
                .build());
    }

    private static String subscription(String requestId, String... contentTopics) {
        return "{\"requestId\":\"" + requestId + "\",\"pubsubTopic\":\"" + TOPIC + "\",\"contentFilters\":[\""
                + String.join("\",\"", contentTopics) + "\"]}";
    }

    private static void publish(Http rest, String contentTopic, String text) {
        String payload = Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
        Http.Reply r = rest.post("/relay/v1/messages/" + Http.topic(TOPIC),
                "{\"payload\":\"" + payload + "\",\"contentTopic\":\"" + contentTopic + "\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    private static String payload(JsonNode message) {
        return new String(Base64.getDecoder().decode(message.get("payload").asText()), StandardCharsets.UTF_8);
    }

    /** Polls GET /filter/v2/messages/{contentTopic} until a message came, and returns it. */
    private static JsonNode awaitMessage(Http rest, String contentTopic) {
        JsonNode[] got = new JsonNode[1];
        Eventually.until("a message on " + contentTopic + " pushed to the edge", Duration.ofSeconds(15), () -> {
            Http.Reply r = rest.get("/filter/v2/messages/" + Http.topic(contentTopic));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode messages = r.json();
            if (messages.size() > 0) {
                got[0] = messages;
                return true;
            }
            return false;
        });
        return got[0];
    }

    /**
     * Issue 43's N4: a peer that is not the edge's filter service node writes a push on the edge's push protocol,
     * matching its subscription, with a timestamp of 1970. It is not served by {@code GET /filter/v2/messages} (it was,
     * as nwaku's client takes a push from anyone); the service node's own messages still are.
     */
    @Test
    void aPushForgedByAPeerThatIsNotTheServiceNodeIsNotServed() throws Exception {
        try (WakuNode full = full(0); WakuNode edge = edge(full); ForgedFilterPusher forger = new ForgedFilterPusher("127.0.0.4")) {
            Http edgeRest = new Http(edge.restAddress());
            Http.Reply subscribed = edgeRest.post("/filter/v2/subscriptions", subscription("sub-1", CHAT));
            assertThat(subscribed.status()).as(subscribed.body()).isEqualTo(200);
            WakuMessage forged = WakuMessage.newBuilder().setContentTopic(CHAT).setTimestamp(1_000_000_000L)
                    .setPayload(ByteString.copyFromUtf8("forged")).build();
            boolean refused = forger.push(edge.multiaddr(), TOPIC, forged, Duration.ofSeconds(10));
            assertThat(edgeRest.get("/filter/v2/messages/" + Http.topic(CHAT)).body()).as("the forged push is not served")
                    .isEqualTo("[]");
            Eventually.until("the forged push counted", Duration.ofSeconds(10), () -> edge.metrics().scrape()
                    .contains("waku_filter_client_pushes_total{outcome=\"not_service_peer\"} 1.0"));
            assertThat(refused).as("its stream was reset").isTrue();

            publish(new Http(full.restAddress()), CHAT, "from the service node");
            JsonNode messages = awaitMessage(edgeRest, CHAT);
            assertThat(messages).hasSize(1);
            assertThat(payload(messages.get(0))).isEqualTo("from the service node");
        }
    }

    @Test
    void aSubscriptionOnTheEdgeBringsTheFullNodesMessagesAndUnsubscribingEndsThem() {
        try (WakuNode full = full(0); WakuNode edge = edge(full)) {
            Http fullRest = new Http(full.restAddress());
            Http edgeRest = new Http(edge.restAddress());
            Http.Reply subscribed = edgeRest.post("/filter/v2/subscriptions", subscription("sub-1", CHAT));
            assertThat(subscribed.status()).as(subscribed.body()).isEqualTo(200);
            assertThat(subscribed.json().toString()).isEqualTo("{\"requestId\":\"sub-1\",\"statusDesc\":\"OK\"}");
            Http.Reply modified = edgeRest.put("/filter/v2/subscriptions", subscription("sub-2", NEWS));
            assertThat(modified.json().toString()).isEqualTo("{\"requestId\":\"sub-2\",\"statusDesc\":\"OK\"}");
            assertThat(edgeRest.get("/filter/v2/messages/" + Http.topic(CHAT)).body()).isEqualTo("[]");

            publish(fullRest, CHAT, "hello edge");
            JsonNode messages = awaitMessage(edgeRest, CHAT);
            assertThat(messages).hasSize(1);
            assertThat(payload(messages.get(0))).isEqualTo("hello edge");
            assertThat(messages.get(0).get("contentTopic").asText()).isEqualTo(CHAT);
            assertThat(messages.get(0).get("timestamp").asLong()).isPositive();

            Http.Reply ping = edgeRest.get("/filter/v2/subscriptions/ping-1");
            assertThat(ping.json().toString()).isEqualTo("{\"requestId\":\"ping-1\",\"statusDesc\":\"OK\"}");

            Http.Reply unsubscribed = edgeRest.delete("/filter/v2/subscriptions", subscription("unsub-1", CHAT));
            assertThat(unsubscribed.json().toString()).isEqualTo("{\"requestId\":\"unsub-1\",\"statusDesc\":\"OK\"}");
            publish(fullRest, CHAT, "not for the edge");
            publish(fullRest, NEWS, "news for the edge");
            JsonNode[] news = new JsonNode[1];
            Eventually.until("the news pushed to the edge, read by pubsub and content topic", Duration.ofSeconds(15), () -> {
                news[0] = edgeRest.get("/filter/v2/messages/" + Http.topic(TOPIC) + "/" + Http.topic(NEWS)).json();
                return news[0].size() > 0;
            });
            assertThat(payload(news[0].get(0))).isEqualTo("news for the edge");
            assertThat(edgeRest.get("/filter/v2/messages/" + Http.topic("/waku/2/rs/0/1") + "/" + Http.topic(NEWS)).body())
                    .as("none came on another pubsub topic").isEqualTo("[]");
            Http.Reply chat = edgeRest.get("/filter/v2/messages/" + Http.topic(CHAT));
            assertThat(chat.status()).as("nwaku's answer for a content topic not subscribed").isEqualTo(400);
            assertThat(chat.body()).isEqualTo("Not subscribed to topic: " + CHAT);
            assertThat(edge.metrics().scrape()).contains("waku_filter_client_pushes_total{outcome=\"unsolicited\"} 0.0");

            Http.Reply all = edgeRest.delete("/filter/v2/subscriptions/all", "{\"requestId\":\"all-1\"}");
            assertThat(all.json().toString()).isEqualTo("{\"requestId\":\"all-1\",\"statusDesc\":\"OK\"}");
            Http.Reply lost = edgeRest.get("/filter/v2/subscriptions/ping-2");
            assertThat(lost.status()).as("nwaku's answer to a ping of a subscription the service node does not hold")
                    .isEqualTo(404);
            assertThat(lost.json().toString()).isEqualTo("{\"requestId\":\"ping-2\",\"statusDesc\":\"peer has no subscriptions\"}");
        }
    }

    /** The full node restarts (same data dir, so the same key, and the same port): the edge subscribes again by itself. */
    @Test
    void theEdgeSubscribesAgainWhenItsFilterNodeRestarted() {
        WakuNode full = full(0);
        int port = full.peerAddress().getPort();
        try (WakuNode edge = edge(full)) {
            Http edgeRest = new Http(edge.restAddress());
            assertThat(edgeRest.post("/filter/v2/subscriptions", subscription("sub-1", CHAT)).status()).isEqualTo(200);
            publish(new Http(full.restAddress()), CHAT, "before the restart");
            assertThat(payload(awaitMessage(edgeRest, CHAT).get(0))).isEqualTo("before the restart");

            full.close();
            full = full(port);
            Http fullRest = new Http(full.restAddress());
            WakuNode restarted = full;
            Eventually.until("the restarted full node holds the edge's subscription again", Duration.ofSeconds(15),
                    () -> restarted.metrics().scrape().contains("waku_filter_subscriptions 1.0"));
            publish(fullRest, CHAT, "after the restart");
            assertThat(payload(awaitMessage(edgeRest, CHAT).get(0))).isEqualTo("after the restart");
            assertThat(edge.metrics().scrape()).containsPattern("waku_filter_client_resubscriptions_total [1-9]");
        } finally {
            full.close();
        }
    }

    @Test
    void withoutAFilterNodeOrABodyTheAnswersAreNwakus() {
        try (WakuNode alone = WakuNode.start(TestNodes.local(dir.resolve("alone")).archive(null).build())) {
            Http rest = new Http(alone.restAddress());
            Http.Reply noPeer = rest.post("/filter/v2/subscriptions", subscription("sub-1", CHAT));
            assertThat(noPeer.status()).isEqualTo(503);
            assertThat(noPeer.json().toString()).isEqualTo("{\"requestId\":\"sub-1\",\"statusDesc\":"
                    + "\"SERVICE_UNAVAILABLE: No suitable service peer & no discovery method\"}");
            Http.Reply noPeerPing = rest.get("/filter/v2/subscriptions/p");
            assertThat(noPeerPing.status()).isEqualTo(503);

            Http.Reply noId = rest.post("/filter/v2/subscriptions", "{\"contentFilters\":[\"" + CHAT + "\"]}");
            assertThat(noId.status()).isEqualTo(400);
            assertThat(noId.json().get("requestId").asText()).isEqualTo("unknown");
            assertThat(noId.json().get("statusDesc").asText())
                    .startsWith("BAD_REQUEST: Failed to decode request: Invalid content body, could not decode. ")
                    .contains("requestId");
            Http.Reply empty = rest.post("/filter/v2/subscriptions", "{\"requestId\":\"1\",\"contentFilters\":[]}");
            assertThat(empty.json().get("statusDesc").asText()).contains("Field `contentFilters` is empty");

            Http.Reply notSubscribed = rest.get("/filter/v2/messages/" + Http.topic(CHAT));
            assertThat(notSubscribed.status()).isEqualTo(400);
            assertThat(notSubscribed.body()).isEqualTo("Not subscribed to topic: " + CHAT);
        }
    }
}
