package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.enr.WakuCapabilities.Capability;

/** The REST contract against an in-process node: answers, and a 4xx JSON error for every kind of bad input. */
class RestApiTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/chat/proto";

    @TempDir
    static Path dataDir;
    static WakuNode node;
    static Http rest;

    @BeforeAll
    static void start() {
        NodeConfig config = TestNodes.local(dataDir).metrics(TestNodes.metrics())
                .archive(TestNodes.archiveOfAnyTimestamp(dataDir)).build();
        node = WakuNode.start(config);
        rest = new Http(node.restAddress());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    private static String body(String payload, long timestamp) {
        return "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload.getBytes()) + "\",\"contentTopic\":\"" + CONTENT
                + "\",\"timestamp\":" + timestamp + ",\"version\":0}";
    }

    @Test
    void publishesAMessageAndFindsItInTheStoreUnderTheHashItComputes() {
        long timestamp = WakuNode.nowNanos();
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body("hello", timestamp));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo("OK");

        String expected = new MessageHasher(new PathCounters()).hash(TOPIC, WakuMessage.newBuilder()
                .setPayload(ByteString.copyFromUtf8("hello")).setContentTopic(CONTENT).setTimestamp(timestamp).build()).toHex();
        String query = "/store/v3/messages?includeData=true&hashes=" + expected;
        Eventually.until("the message is archived", Duration.ofSeconds(10), () -> storeCount(query) == 1);
        JsonNode stored = rest.get(query).json();
        assertThat(stored.get("statusCode").asInt()).isEqualTo(200);
        JsonNode m = stored.get("messages").get(0);
        assertThat(m.get("messageHash").asText()).isEqualTo(expected);
        assertThat(m.get("pubsubTopic").asText()).isEqualTo(TOPIC);
        assertThat(m.get("message").get("payload").asText()).isEqualTo(Base64.getEncoder().encodeToString("hello".getBytes()));
        assertThat(m.get("message").get("timestamp").asLong()).isEqualTo(timestamp);
    }

    @Test
    void aPublishInNwakusShapeIsAcceptedAndATimestampOfZeroStampedNow() {
        long before = WakuNode.nowNanos();
        String body = "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/nwaku/proto\",\"timestamp\":0,\"proof\":\"cHJvb2Y=\"}";
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status()).isEqualTo(200);
        String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic("/app/1/nwaku/proto");
        Eventually.until("the message is archived", Duration.ofSeconds(10), () -> storeCount(query) == 1);
        JsonNode m = rest.get(query).json().get("messages").get(0).get("message");
        assertThat(m.get("timestamp").asLong()).isBetween(before, WakuNode.nowNanos());
        assertThat(m.get("proof").asText()).as("nwaku's name").isEqualTo("cHJvb2Y=");
    }

    @Test
    void aStoredMessageComesBackWithEveryFieldAsPublished() {
        long timestamp = WakuNode.nowNanos();
        String published = "{\"payload\":\"AA==\",\"contentTopic\":\"/app/1/fields/proto\",\"version\":4294967295,\"timestamp\":" + timestamp
                + ",\"meta\":\"bWV0YQ==\",\"rateLimitProof\":\"cHJvb2Y=\",\"ephemeral\":false}";
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), published).status()).isEqualTo(200);
        String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic("/app/1/fields/proto");
        Eventually.until("the message is archived", Duration.ofSeconds(10), () -> storeCount(query) == 1);
        JsonNode m = rest.get(query).json().get("messages").get(0);
        assertThat(m.get("pubsubTopic").asText()).isEqualTo(TOPIC);
        assertThat(m.get("message").toString()).isEqualTo("{\"payload\":\"AA==\",\"contentTopic\":\"/app/1/fields/proto\",\"version\":4294967295,"
                + "\"timestamp\":" + timestamp + ",\"meta\":\"bWV0YQ==\",\"proof\":\"cHJvb2Y=\",\"ephemeral\":false}");
    }

    private static int storeCount(String query) {
        Http.Reply reply = rest.get(query);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json().get("messages").size();
    }

    @Test
    void aMessageWithoutTimestampGetsTheNodesTime() {
        long before = WakuNode.nowNanos();
        String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString("no-time".getBytes()) + "\",\"contentTopic\":\"/app/1/notime/proto\"}";
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status()).isEqualTo(200);
        String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic("/app/1/notime/proto");
        Eventually.until("the message is archived", Duration.ofSeconds(10), () -> storeCount(query) == 1);
        long stamped = rest.get(query).json().get("messages").get(0).get("message").get("timestamp").asLong();
        assertThat(stamped).isBetween(before, WakuNode.nowNanos());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "not json",
            "[]",
            "{}",
            "{\"payload\":123,\"contentTopic\":\"/app/1/chat/proto\"}",
            "{\"payload\":\"***\",\"contentTopic\":\"/app/1/chat/proto\"}",
            "{\"payload\":\"aGk=\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"surprise\":{\"a\":1}}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"timestamp\":null}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"version\":\"one\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"version\":-1}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"timestamp\":\"now\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"timestamp\":1e30}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"ephemeral\":\"yes\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"meta\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",
            "{\"payload\":\"\",\"contentTopic\":\"/app/1/chat/proto\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"contentTopic\":\"/app/1/other/proto\"}",
    })
    void refusesBadPublishBodiesWithA400JsonError(String body) {
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body);
        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {"%2Fnot%2Fwaku", "%2Fwaku%2F2%2Frs%2F0%2F0%27%3B%20DROP%20TABLE%20m%3B--", "%C3%28", "%2Fwaku%2F2%2F%3Cscript%3E"})
    void refusesBadPubsubTopicsInThePath(String encodedTopic) {
        Http.Reply reply = rest.post("/relay/v1/messages/" + encodedTopic, body("x", WakuNode.nowNanos()));
        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).isNotBlank();
    }

    @Test
    void publishingOnATopicTheNodeDoesNotRelayIsA400ThatSaysSoUntilTheNodeSubscribes() {
        String topic = "/waku/2/rs/0/5";
        Http.Reply refused = rest.post("/relay/v1/messages/" + Http.topic(topic), body("nowhere", WakuNode.nowNanos()));
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).isEqualTo("Failed to publish: Node not subscribed to topic: " + topic);

        assertThat(rest.post("/relay/v1/subscriptions", "[\"" + topic + "\"]").status()).isEqualTo(200);
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(topic), body("somewhere", WakuNode.nowNanos())).status()).isEqualTo(200);
        assertThat(rest.delete("/relay/v1/subscriptions", "[\"" + topic + "\"]").status()).isEqualTo(200);
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(topic), body("gone", WakuNode.nowNanos())).status())
                .as("unsubscribed again").isEqualTo(400);
    }

    @Test
    void refusesAPayloadOverTheMessageSizeWith400() {
        String big = Base64.getEncoder().encodeToString(new byte[160_000]);
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC),
                "{\"payload\":\"" + big + "\",\"contentTopic\":\"" + CONTENT + "\"}");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).contains("message_too_large");
    }

    @Test
    void refusesABodyOverTheRequestLimitWith400AsNwaku() {
        String huge = "{\"payload\":\"" + "A".repeat(2 << 20) + "\"}";
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), huge);
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).contains("larger than");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pageSize=x", "startTime=abc", "cursor=0x12", "hashes=nothex", "includeData=maybe",
            "contentTopics=a,b,c,d,e,f,g,h,i,j,k"})
    void refusesBadStoreQueriesWith400AndSaysWhy(String query) {
        Http.Reply reply = rest.get("/store/v3/messages?" + query);
        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.body()).as("nwaku's text/plain words").isNotBlank().doesNotStartWith("{");
    }

    @Test
    void aContentTopicContainingACommaIsFoundWhenTheCommaIsSentAsPercent2C() {
        String comma = "/app/1/a,b/proto";
        String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString("comma".getBytes()) + "\",\"contentTopic\":\"" + comma
                + "\",\"timestamp\":" + WakuNode.nowNanos() + "}";
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status()).isEqualTo(200);
        // Http.topic percent-encodes the comma as %2C; the raw comma between the two topics separates them
        String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic(comma)
                + "," + Http.topic("/app/1/other/proto");
        Eventually.until("the message is archived and found", Duration.ofSeconds(10), () -> storeCount(query) == 1);
        assertThat(rest.get(query).json().get("messages").get(0).get("message").get("contentTopic").asText()).isEqualTo(comma);
    }

    @Test
    void aStoreQueryForAPeerAddrWithoutAValidPeerIdIs400AndSaysWhy() {
        Http.Reply reply = rest.get("/store/v3/messages?peerAddr=" + Http.topic("/ip4/127.0.0.1/tcp/60000/p2p/16Uiu2HAm") + "&requestId=r1");
        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.body()).startsWith("Failed parsing remote peer info: ").contains("16Uiu2HAm");
    }

    /**
     * nwaku answers a remote store's refusal as the REST call's success, the store's status in the body (only 429 is
     * also the HTTP status), and a peer it cannot dial the same way, with 504 in the body (this node answered them
     * with the store's status, and 504, as HTTP statuses).
     */
    @Test
    void aRemoteStoresRefusalOrAPeerThatCannotBeDialledIsA200WithTheStoreStatusInTheBodyAsInNwaku() {
        try (WakuNode asking = WakuNode.start(TestNodes.local(dataDir.resolve("asking")).archive(null).build())) {
            Http other = new Http(asking.restAddress());
            String unknownCursor = "0x" + "ab".repeat(32);
            Http.Reply refused = other.get("/store/v3/messages?requestId=r3&pubsubTopic=" + Http.topic(TOPIC) + "&cursor=" + unknownCursor
                    + "&peerAddr=" + Http.topic(node.multiaddr().toString()));
            assertThat(refused.status()).as(refused.body()).isEqualTo(200);
            assertThat(refused.json().get("statusCode").asInt()).isEqualTo(400);
            assertThat(refused.json().get("requestId").asText()).isEqualTo("r3");
            assertThat(refused.json().get("statusDesc").asText()).isNotBlank();

            // a peer id no node here has (the asking node is connected to this test's node by now, whatever the address)
            String gone = "/ip4/127.0.0.1/tcp/1/p2p/16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b";
            Http.Reply unreachable = other.get("/store/v3/messages?requestId=r4&peerAddr=" + Http.topic(gone));
            assertThat(unreachable.status()).as(unreachable.body()).isEqualTo(200);
            assertThat(unreachable.json().get("statusCode").asInt()).isEqualTo(504);
            assertThat(unreachable.json().get("requestId").asText()).isEqualTo("r4");
        }
    }

    /** nwaku without a store of its own and no store peer answers 412 Precondition Failed (it was a 503 here). */
    @Test
    void aQueryWithoutPeerAddrOnANodeWithoutAStoreIsA412AsInNwaku() {
        try (WakuNode noStore = WakuNode.start(TestNodes.local(dataDir.resolve("no-store")).archive(null).build())) {
            Http.Reply reply = new Http(noStore.restAddress()).get("/store/v3/messages?requestId=r5");
            assertThat(reply.status()).as(reply.body()).isEqualTo(412);
            assertThat(reply.json().get("statusCode").asInt()).isEqualTo(412);
            assertThat(reply.json().get("requestId").asText()).isEqualTo("r5");
            assertThat(reply.json().get("statusDesc").asText()).contains("peerAddr");
        }
    }

    @Test
    void acceptsAStoreQueryListingTheMaximumOfAHundredHashes() {
        StringBuilder hashes = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            hashes.append(i == 0 ? "" : ",").append(String.format("0x%064x", i));
        }
        Http.Reply reply = rest.get("/store/v3/messages?hashes=" + hashes);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().get("messages")).isEmpty();
    }

    @Test
    void cachesMessagesOfRestSubscribedTopicsUntilRead() {
        String topic = "/waku/2/rs/0/7";
        assertThat(rest.get("/relay/v1/messages/" + Http.topic(topic)).status()).isEqualTo(404);
        assertThat(rest.post("/relay/v1/subscriptions", "[\"" + topic + "\"]").status()).isEqualTo(200);
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(topic), body("cached", WakuNode.nowNanos())).status()).isEqualTo(200);
        Eventually.until("the message is cached", Duration.ofSeconds(5),
                () -> rest.get("/relay/v1/messages/" + Http.topic(topic)).json().size() == 1 || false);
        assertThat(rest.get("/relay/v1/messages/" + Http.topic(topic)).json()).as("reading clears the cache").isEmpty();
        assertThat(rest.delete("/relay/v1/subscriptions", "[\"" + topic + "\"]").status()).isEqualTo(200);
        assertThat(rest.get("/relay/v1/messages/" + Http.topic(topic)).status()).isEqualTo(404);
    }

    @Test
    void streamsMessagesAsServerSentEvents() throws InterruptedException {
        BlockingQueue<JsonNode> events = rest.stream("/relay/v1/stream/" + Http.topic(TOPIC));
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body("streamed", WakuNode.nowNanos())).status()).isEqualTo(200);
        JsonNode event = events.poll(10, TimeUnit.SECONDS);
        assertThat(event).isNotNull();
        assertThat(event.get("pubsubTopic").asText()).isEqualTo(TOPIC);
        assertThat(event.get("messageHash").asText()).startsWith("0x").hasSize(66);
        assertThat(Base64.getDecoder().decode(event.get("message").get("payload").asText())).isEqualTo("streamed".getBytes());
    }

    @Test
    void answersHealthAndInfoAndKeepsAdminClosed() {
        Http.Reply health = rest.get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("nodeHealth").asText()).isEqualTo("READY");
        assertThat(health.json().get("protocolsHealth").toString())
                .as("nwaku's values, order and descs; a relay alone is not ready, nor what serves from its peers")
                .isEqualTo("[{\"Relay\":\"NOT_READY\",\"desc\":\"No connected peers\"},"
                        + "{\"Rln Relay\":\"NOT_MOUNTED\"},"
                        + "{\"Lightpush\":\"NOT_READY\",\"desc\":\"Node has no relay peers to fullfill push requests\"},"
                        + "{\"Filter\":\"NOT_READY\",\"desc\":\"Relay is not ready, filter will not be able to sort out messages\"},"
                        + "{\"Store\":\"READY\"},{\"Peer Exchange\":\"READY\"}]");
        JsonNode info = rest.get("/debug/v1/info").json();
        assertThat(info.get("peerId").asText()).isEqualTo(node.peerId());
        assertThat(info.get("listenAddresses").size()).isPositive();
        info.get("listenAddresses").forEach(a -> assertThat(a.asText()).endsWith("/p2p/" + node.peerId())
                .doesNotContain("/ip4/0.0.0.0"));
        assertThat(info.get("pubsubTopics").toString()).contains(TOPIC);
    }

    @Test
    void infoCarriesTheNodesEnrWithItsAddressServicesAndShardsAsNwakuNamesIt() {
        JsonNode info = rest.get("/debug/v1/info").json();
        Enr enr = Enr.parse(info.get("enrUri").asText());
        assertThat(enr.peerId().toString()).isEqualTo(node.peerId());
        assertThat(enr.tcp()).contains(node.peerAddress().getPort());
        assertThat(enr.waku2().orElseThrow().capabilities()).containsExactlyInAnyOrder(Capability.RELAY,
                Capability.STORE, Capability.LIGHTPUSH, Capability.FILTER);
        assertThat(enr.relayShards().orElseThrow()).isEqualTo(RelayShards.of(0, java.util.List.of(0)));
        assertThat(enr.dialAddresses()).isNotEmpty().allSatisfy(a -> assertThat(node.listenAddresses())
                .contains(a.toString()));
        assertThat(rest.get("/info").json().get("enrUri")).isEqualTo(info.get("enrUri"));
    }

    /** nwaku does not mount /admin without --rest-admin, so its router answers 404 (before, this node answered 403). */
    @Test
    void withoutRestAdminTheAdminEndpointsAreA404AsInNwakuSayingHowToTurnThemOn() {
        for (Http.Reply reply : new Http.Reply[]{rest.get("/admin/v1/peers"), rest.post("/admin/v1/peers", "[]"),
                rest.post("/admin/v1/log-level/DEBUG", ""), rest.delete("/admin/v1/peers", "[]")}) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(404);
            assertThat(reply.json().get("error").asText()).contains("--rest-admin");
        }
    }

    @Test
    void theVersionIsServedAsTextUnderNwakusPathsAndInfoUnderItsNewerName() {
        Http.Reply version = rest.get("/version");
        assertThat(version.status()).isEqualTo(200);
        assertThat(version.body()).isEqualTo(node.version()).isNotBlank();
        assertThat(rest.get("/debug/v1/version").body()).isEqualTo(version.body());
        assertThat(rest.get("/info").json()).isEqualTo(rest.get("/debug/v1/info").json());
        assertThat(rest.get("/info").json().get("version").asText()).isEqualTo(version.body());
    }

    /** nwaku's router matches method and path together: a method a path does not take is a 404 there (it was a 405 here). */
    @Test
    void unknownEndpointsAndMethodsAPathDoesNotTakeAreA404JsonAsInNwaku() {
        assertThat(rest.get("/nope").status()).isEqualTo(404);
        assertThat(rest.get("/nope").json().get("error").asText()).contains("no endpoint");
        Http.Reply wrongMethod = rest.delete("/health", "");
        assertThat(wrongMethod.status()).as(wrongMethod.body()).isEqualTo(404);
        assertThat(wrongMethod.json().get("error").asText()).contains("GET");
        assertThat(rest.get("/relay/v1/subscriptions").status()).isEqualTo(404);
    }

    /** nwaku answers OPTIONS on its relay routes with 200 OK (browsers' preflights go through the CORS check first). */
    @Test
    void optionsOnTheRelayRoutesIsA200OkAsInNwaku() {
        for (String path : new String[]{"/relay/v1/subscriptions", "/relay/v1/messages/" + Http.topic(TOPIC), "/relay/v1/auto/subscriptions",
                "/relay/v1/auto/messages", "/relay/v1/auto/messages/" + Http.topic(CONTENT)}) {
            Http.Reply reply = rest.options(path);
            assertThat(reply.status()).as(path + ": " + reply.body()).isEqualTo(200);
            assertThat(reply.body()).isEqualTo("OK");
        }
        assertThat(rest.options("/store/v3/messages").status()).as("nwaku has no OPTIONS elsewhere").isEqualTo(404);
    }

    /** nwaku decodes an empty list and subscribes to nothing: 200 (it was a 400 here). */
    @Test
    void anEmptyListOfPubsubTopicsChangesNothingAndIsA200AsInNwaku() {
        assertThat(rest.post("/relay/v1/subscriptions", "[]").status()).isEqualTo(200);
        assertThat(rest.delete("/relay/v1/subscriptions", "[]").status()).isEqualTo(200);
        assertThat(node.relay().subscriptions()).contains(TOPIC);
        assertThat(rest.post("/relay/v1/subscriptions", "{}").status()).as("not a list").isEqualTo(400);
    }

    /** nwaku looks an unknown topic up in its cache and answers 404, whether or not it is a valid topic (it was a 400 here). */
    @ParameterizedTest
    @ValueSource(strings = {"%2Fnot%2Fwaku", "%2Fwaku%2F2%2F%3Cscript%3E", "%2Fwaku%2F2%2Frs%2F0%2F99999"})
    void readingTheCacheOfAnInvalidTopicIsA404AsInNwaku(String encodedTopic) {
        Http.Reply reply = rest.get("/relay/v1/messages/" + encodedTopic);
        assertThat(reply.status()).as(reply.body()).isEqualTo(404);
        assertThat(reply.body()).isEqualTo("no subscription found for pubsubTopic");
    }

    @Test
    void metricsAreServedInPrometheusTextFormat() {
        rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body("counted", WakuNode.nowNanos()));
        String text = new Http(node.metricsAddress()).get("/metrics").body();
        assertThat(Http.metric(text, "waku_hashes_total")).isGreaterThanOrEqualTo(1);
        assertThat(text).contains("waku_encodes_total", "waku_payload_copies_total", "jvm_memory_used_bytes",
                "waku_netty_pooled_memory_bytes", "waku_archive_messages", "libp2p_peers", "libp2p_pubsub_peers", "waku_message_ids_total",
                "libp2p_gossipsub_peers_per_topic_mesh", "waku_process_rss_bytes");
    }
}
