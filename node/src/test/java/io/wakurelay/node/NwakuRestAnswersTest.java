package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The requests scripts written against nwaku send, answered as nwaku answers them (issue 32, items 4, 5, 6, 9 and 10;
 * nwaku's rest_api/endpoint/store and relay handlers, its archive, Nim's parseBool): each case failed on the main
 * branch before these changes (a 400 where nwaku answers 200, a 200 where it answers 400, other words or statuses).
 */
class NwakuRestAnswersTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String OTHER_TOPIC = "/waku/2/rs/0/1";
    private static final String CONTENT = "/app/1/chat/proto";
    private static final String FREE_FORM = "Hello World!";

    @TempDir
    static Path dataDir;
    static WakuNode node;
    static Http rest;
    /** Hashes of what was published: three on TOPIC with CONTENT, one on OTHER_TOPIC with CONTENT, one FREE_FORM on TOPIC. */
    static final List<String> hashes = new ArrayList<>();
    static long firstTimestamp;

    @BeforeAll
    static void start() {
        node = WakuNode.start(TestNodes.local(dataDir).archive(TestNodes.archiveOfAnyTimestamp(dataDir)).build());
        rest = new Http(node.restAddress());
        assertThat(rest.post("/relay/v1/subscriptions", "[\"" + OTHER_TOPIC + "\"]").status()).isEqualTo(200);
        firstTimestamp = WakuNode.nowNanos();
        for (int i = 0; i < 3; i++) {
            publish(TOPIC, CONTENT, "m" + i, firstTimestamp + i);
        }
        publish(OTHER_TOPIC, CONTENT, "other", firstTimestamp + 3);
        // item 4: nwaku relays any non-empty content topic
        publish(TOPIC, FREE_FORM, "free", firstTimestamp + 4);
        Eventually.until("all five are archived", Duration.ofSeconds(10), () -> count("/store/v3/messages?pageSize=100") == 5);
        JsonNode all = rest.get("/store/v3/messages?pageSize=100").json().get("messages");
        all.forEach(m -> hashes.add(m.get("messageHash").asText()));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    private static void publish(String topic, String contentTopic, String payload, long timestamp) {
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(topic), body(contentTopic, payload, timestamp));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    private static String body(String contentTopic, String payload, long timestamp) {
        return "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8))
                + "\",\"contentTopic\":\"" + contentTopic + "\",\"timestamp\":" + timestamp + "}";
    }

    private static int count(String query) {
        Http.Reply reply = rest.get(query);
        assertThat(reply.status()).as(query + " → " + reply.body()).isEqualTo(200);
        return reply.json().get("messages").size();
    }

    private static Http.Reply getJson(String path) {
        return rest.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "application/json").GET());
    }

    private static String base() {
        return "http://" + node.restAddress().getHostString() + ":" + node.restAddress().getPort();
    }

    // item 4: content topics

    @Test
    void aContentTopicThatIsNotFourPartIsRelayedAndStoredButHasNoShard() {
        assertThat(count("/store/v3/messages?contentTopics=" + Http.topic(FREE_FORM))).isEqualTo(1);
        Http.Reply auto = rest.post("/relay/v1/auto/messages", body(FREE_FORM, "auto", WakuNode.nowNanos()));
        assertThat(auto.status()).as("a shard cannot be derived from it: " + auto.body()).isEqualTo(400);
    }

    // item 5: store query leniency

    @ParameterizedTest(name = "{0} → {1} messages")
    @CsvSource(delimiter = '|', value = {
            "contentTopics=%2Fapp%2F1%2Fchat%2Fproto | 4",
            "pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0&colour=blue | 4",
            "pageSize=2&pageSize=50 | 2",
            "pageSize=-1 | 5",
            "pageSize= | 5",
            "pubsubTopic=not-a-topic | 0",
            "pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0&contentTopics=chat | 0",
            "ascending= | 5",
            "PUBSUBTOPIC=%2Fwaku%2F2%2Frs%2F0%2F1 | 1",
            "startTime=0&endTime=-5 | 5",
    })
    void lenientQueriesAreAnsweredWithMessagesOrNone(String query, int expected) {
        assertThat(count("/store/v3/messages?" + query)).isEqualTo(expected);
    }

    @Test
    void aNegativePageSizeIsTheLargestPageAndAnEmptyAscendingIsForward() {
        JsonNode page = rest.get("/store/v3/messages?pageSize=-1&ascending=").json();
        assertThat(page.get("messages")).hasSize(5);
        assertThat(page.get("messages").get(0).get("messageHash").asText()).isEqualTo(hashes.get(0));
        // any ascending other than "true" is backward: the newest page first, each page in time order
        JsonNode backward = rest.get("/store/v3/messages?pageSize=2&ascending=True").json();
        assertThat(backward.get("messages").get(1).get("messageHash").asText()).isEqualTo(hashes.get(4));
    }

    @Test
    void startTimeAfterEndTimeFindsNothing() {
        assertThat(count("/store/v3/messages?startTime=" + (firstTimestamp + 3) + "&endTime=" + firstTimestamp)).isZero();
    }

    /** nwaku's archive drivers join every filter: hashes given with a pubsub topic find those on that topic. */
    @Test
    void hashesWithAPubsubTopicFindTheHashedMessagesOnThatTopic() {
        String hashed = "&hashes=" + hashes.get(0) + "," + hashes.get(1) + "," + hashes.get(3);
        assertThat(count("/store/v3/messages?pubsubTopic=" + Http.topic(TOPIC) + hashed)).isEqualTo(2);
        assertThat(count("/store/v3/messages?pubsubTopic=" + Http.topic(OTHER_TOPIC) + hashed)).isEqualTo(1);
        assertThat(count("/store/v3/messages?contentTopics=" + Http.topic(FREE_FORM) + hashed)).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"True", "TRUE", "yes", "Y", "on", "1", "t_r_u_e"})
    void includeDataIsReadAsNimsParseBool(String value) {
        JsonNode m = rest.get("/store/v3/messages?pageSize=1&includeData=" + value).json().get("messages").get(0);
        assertThat(m.has("message")).as(value).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"False", "no", "N", "off", "0", ""})
    void includeDataFalseInNimsWordsLeavesTheMessagesOut(String value) {
        JsonNode m = rest.get("/store/v3/messages?pageSize=1&includeData=" + value).json().get("messages").get(0);
        assertThat(m.has("message")).as(value).isFalse();
    }

    @Test
    void aCursorThatIsNotStoredIs500CursorNotFound() {
        Http.Reply reply = rest.get("/store/v3/messages?cursor=0x" + "ab".repeat(32));
        assertThat(reply.status()).isEqualTo(500);
        assertThat(reply.body()).isEqualTo("error in handleSelfStoreRequest: BAD_RESPONSE: archive error: DRIVER_ERROR: cursor not found");
    }

    // item 10: nwaku's words, text/plain, JSON beside for a client that asks for it

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "hashes=0x12 | waku message hash parsing error: invalid hash length: 1",
            "hashes=abc | Exception converting hex string to bytes: hex string must have even length",
            "hashes=0xzz | Exception converting hex string to bytes: z is not a hexadecimal character",
            "cursor=12 | waku message hash parsing error: invalid hash length: 1",
            "includeData=maybe | include data parsing error: cannot interpret as a bool: maybe",
            "pageSize=x | page size parsing error: invalid integer: x",
            "startTime=abc | time parsing error: invalid integer: abc",
    })
    void badParametersAre400InNwakusWords(String query, String words) {
        Http.Reply reply = rest.get("/store/v3/messages?" + query);
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).isEqualTo(words);
    }

    @Test
    void aPeerAddrThatIsNotAPeersAddressIs400InNwakusWords() {
        Http.Reply noPeerId = rest.get("/store/v3/messages?peerAddr=" + Http.topic("/ip4/127.0.0.1/tcp/60000"));
        assertThat(noPeerId.status()).isEqualTo(400);
        assertThat(noPeerId.body()).isEqualTo("Failed parsing remote peer info: Error in parsePeerInfo: p2p part should contain / "
                + "[p2pPartStr:] [peer:/ip4/127.0.0.1/tcp/60000]");
        Http.Reply broken = rest.get("/store/v3/messages?peerAddr=nonsense");
        assertThat(broken.status()).isEqualTo(400);
        assertThat(broken.body()).startsWith("Failed parsing remote peer info: MultiAddress.init [");
    }

    @Test
    void aClientAskingForJsonGetsTheSameWordsInJson() {
        Http.Reply reply = getJson("/store/v3/messages?requestId=r1&hashes=0x12");
        assertThat(reply.status()).isEqualTo(400);
        JsonNode body = reply.json();
        assertThat(body.get("error").asText()).isEqualTo("waku message hash parsing error: invalid hash length: 1");
        assertThat(body.get("statusDesc").asText()).isEqualTo("waku message hash parsing error: invalid hash length: 1");
        assertThat(body.get("requestId").asText()).isEqualTo("r1");
        Http.Reply relay = rest.send(HttpRequest.newBuilder(URI.create(base() + "/relay/v1/messages/" + Http.topic("/waku/2/rs/0/9")))
                .header("Accept", "application/json").GET());
        assertThat(relay.status()).isEqualTo(404);
        assertThat(relay.json().get("error").asText()).isEqualTo("no subscription found for pubsubTopic");
    }

    @Test
    void publishingOnATopicTheNodeDoesNotRelayIsNwakus400() {
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic("/waku/2/rs/0/5"), body(CONTENT, "x", WakuNode.nowNanos()));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).isEqualTo("Failed to publish: Node not subscribed to topic: /waku/2/rs/0/5");
    }

    @Test
    void readingATopicNotSubscribedIs404NoSubscriptionFound() {
        Http.Reply reply = rest.get("/relay/v1/messages/" + Http.topic("/waku/2/rs/0/9"));
        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.body()).isEqualTo("no subscription found for pubsubTopic");
    }

    // item 6: the publish body, as nwaku decodes it

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"colour\":\"blue\"}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"timestamp\":null}",
            "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/chat/proto\",\"meta\":null}",
    })
    void anUnknownFieldOrANullIsA400(String body) {
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), body);
        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).startsWith("Invalid content body, could not decode: ");
    }

    // item 9: oversized input

    @ParameterizedTest
    @ValueSource(ints = {1 << 20, 10 << 20})
    void aPublishOverTheBodyLimitIs400(int size) {
        String huge = "{\"payload\":\"" + "A".repeat(size) + "\",\"contentTopic\":\"" + CONTENT + "\"}";
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), huge);
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).contains("larger than");
    }

    /** Over nwaku's own body limit (16 MiB) chronos answers 413; so do we. */
    @Test
    void aBodyOverNwakusOwnLimitIs413() {
        RawHttp.Reply reply = new RawHttp(node.restAddress()).request("POST", "/relay/v1/messages/" + Http.topic(TOPIC),
                new byte[(16 << 20) + 1], "application/json");
        assertThat(reply.status()).isEqualTo(413);
    }

    @Test
    void aQueryStringOfSixMegabytesIsAnswered414NotReset() {
        String target = "/store/v3/messages?contentTopics=" + "a".repeat(5_900_000);
        RawHttp.Reply reply = new RawHttp(node.restAddress(), 20_000).request("GET", target, null, null, Map.of());
        assertThat(reply.status()).as("write failed: " + reply.writeFailed()).isEqualTo(414);
        // a client that stops at a failed write (as curl and the JDK's client do) must have been able to send it all
        assertThat(reply.writeFailed()).isFalse();
        assertThat(rest.get(target).status()).isEqualTo(414);
    }
}
