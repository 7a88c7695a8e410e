package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What nwaku's REST interop suite (waku-interop-tests) still found, answered as nwaku answers it (issue 41, item 8):
 * lists sent as one percent-encoded value, the texts and statuses its assertions match on, and the content topics of
 * 1,000 bytes it relays and stores. Each case failed before.
 */
class InteropSuiteAnswersTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/chat/proto";
    private static final String OTHER_CONTENT = "/app/1/other/proto";
    /** The suite's "A very long string" content topic. */
    private static final String LONG_CONTENT = "x".repeat(1000);

    @TempDir
    static Path dataDir;
    static WakuNode node;
    static Http rest;
    /** The hashes of what was published, oldest first: two on CONTENT, one on OTHER_CONTENT, one on LONG_CONTENT. */
    static final List<String> hashes = new ArrayList<>();

    @BeforeAll
    static void start() {
        node = WakuNode.start(TestNodes.local(dataDir).relay(RelayConfig.builder()
                .limits(ProtocolLimits.DEFAULTS.withMaxClockDrift(Duration.ZERO)).build()).build());
        rest = new Http(node.restAddress());
        long now = WakuNode.nowNanos();
        publish(CONTENT, "m0", now);
        publish(CONTENT, "m1", now + 1);
        publish(OTHER_CONTENT, "m2", now + 2);
        publish(LONG_CONTENT, "m3", now + 3);
        Eventually.until("all four are archived", Duration.ofSeconds(10),
                () -> rest.get("/store/v3/messages?pageSize=100").json().get("messages").size() == 4);
        rest.get("/store/v3/messages?pageSize=100").json().get("messages").forEach(m -> hashes.add(m.get("messageHash").asText()));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    private static void publish(String contentTopic, String payload, long timestamp) {
        Http.Reply reply = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), message(contentTopic, payload, timestamp, null));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }

    private static String message(String contentTopic, String payload, long timestamp, byte[] meta) {
        return "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8))
                + "\",\"contentTopic\":\"" + contentTopic + "\",\"timestamp\":" + timestamp
                + (meta == null ? "" : ",\"meta\":\"" + Base64.getEncoder().encodeToString(meta) + "\"") + "}";
    }

    /** As Python's {@code quote(value, safe='')}, which the suite applies to every value: the commas too. */
    private static String quoted(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static List<String> found(String query) {
        Http.Reply reply = rest.get("/store/v3/messages?" + query);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        reply.json().get("messages").forEach(m -> out.add(m.get("messageHash").asText()));
        return out;
    }

    @Test
    void hashesSentAsOneEncodedValueAreSplitOnTheirCommas() {
        // before: one hash of 133 characters, "hex string must have even length"
        assertThat(found("hashes=" + quoted(hashes.get(0) + "," + hashes.get(2)))).containsExactly(hashes.get(0), hashes.get(2));
        assertThat(found("hashes=" + hashes.get(0) + "," + hashes.get(2))).containsExactly(hashes.get(0), hashes.get(2));
    }

    @Test
    void contentTopicsSentAsOneEncodedValueAreSplitOnTheirCommas() {
        // before: one content topic "/app/1/chat/proto,/app/1/other/proto", which no message has
        assertThat(found("contentTopics=" + quoted(CONTENT + "," + OTHER_CONTENT))).containsExactly(hashes.get(0),
                hashes.get(1), hashes.get(2));
    }

    @Test
    void anEmptyElementInAHashListIsSkippedAsNwakuSkipsIt() {
        assertThat(found("hashes=" + quoted(hashes.get(1) + ","))).containsExactly(hashes.get(1));
    }

    @Test
    void theContentTopicOfOneSpaceIsAnEmptyPage() {
        // before: the space was trimmed away, and the query was one without content topics: every message
        assertThat(found("contentTopics=%20&pageSize=5")).isEmpty();
        assertThat(found("contentTopics=+")).isEmpty();
    }

    @Test
    void aPeerAddrWithoutItsLeadingSlashIsNwakus400() {
        String addr = "ip4/127.0.0.1/tcp/60000/p2p/16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b";
        Http.Reply reply = rest.get("/store/v3/messages?peerAddr=" + quoted(addr));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body()).isEqualTo(
                "Failed parsing remote peer info: MultiAddress.init [multiaddress: Invalid MultiAddress, must start with `/`]");
    }

    @Test
    void aContentTopicOfAThousandBytesIsRelayedAndStored() {
        assertThat(found("contentTopics=" + LONG_CONTENT)).containsExactly(hashes.get(3));
    }

    @Test
    void aLegacyLightpushOfAMegabyteIsTheMessageSizeRefusalReadToTheEnd() {
        byte[] body = ("{\"pubsubTopic\":\"" + TOPIC + "\",\"message\":" + message(CONTENT, "a".repeat(1 << 20), 1, null) + "}")
                .getBytes(StandardCharsets.UTF_8);
        RawHttp.Reply reply = new RawHttp(node.restAddress()).request("POST", "/lightpush/v1/message", body, "application/json");
        // before: 400 "request body is larger than 1048576 bytes", while a client still sending met a reset
        assertThat(reply.writeFailed()).isFalse();
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.body()).isEqualTo("Failed to request a message push: Message size exceeded maximum of 153600 bytes");
    }

    @Test
    void aLightpushOfAMegabyteIs413InNwakusWords() {
        byte[] body = ("{\"pubsubTopic\":\"" + TOPIC + "\",\"message\":" + message(CONTENT, "a".repeat(1 << 20), 1, null) + "}")
                .getBytes(StandardCharsets.UTF_8);
        RawHttp.Reply reply = new RawHttp(node.restAddress()).request("POST", "/lightpush/v3/message", body, "application/json");
        assertThat(reply.writeFailed()).isFalse();
        assertThat(reply.status()).isEqualTo(413);
        JsonNode json = new Http.Reply(reply.status(), reply.body()).json();
        assertThat(json.get("statusDesc").asText()).isEqualTo("Message size exceeded maximum of 153600 bytes");
    }

    @Test
    void aMetaOverSixtyFourBytesIsRefusedInNwakusWords() {
        Http.Reply relay = rest.post("/relay/v1/messages/" + Http.topic(TOPIC), message(CONTENT, "m", WakuNode.nowNanos(), new byte[65]));
        assertThat(relay.status()).isEqualTo(400);
        // go-waku's words, which the suite takes beside nwaku's; the lightpush routes say them too (LegacyLightpushRestTest)
        assertThat(relay.body()).contains("invalid length for Meta field");
    }
}
