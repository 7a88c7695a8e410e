package io.wakurelay.services;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.store.StoreServiceConfig;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A js-waku light node (@waku/sdk 0.0.36, TCP, cluster 0, Node 20 with the polyfill) pinned to our node uses our
 * Store v3 server: it pages through 250 messages both ways, finds messages by hash, and gets a 400 for malformed
 * queries.
 */
@Tag("process")
class JsWakuStoreInteropTest {
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(90);
    private static final int COUNT = 250;
    @TempDir
    static Path dir;
    private static ServiceNode node;
    private static JsPeer light;
    private static final List<String> published = new ArrayList<>();

    @BeforeAll
    static void start() {
        node = new ServiceNode(0, dir, ServiceNode.Options.none()
                .withStore(StoreServiceConfig.builder().rateLimit(RateLimit.UNLIMITED).build()));
        long end = Messages.nowNanos();
        for (int i = 0; i < COUNT; i++) {
            published.add(node.publish(Messages.inSeries(i, COUNT, end, 64)).toHex());
        }
        Eventually.until(() -> node.archive.messageCount() == COUNT, () -> node.archive.messageCount() + " archived");
        light = JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", node.address().toString());
        JsonNode pinned = light.awaitEvent("pinned", e -> true, Duration.ofSeconds(30));
        assertThat(pinned.path("connected").asBoolean()).as("pinned: %s", pinned).isTrue();
    }

    @AfterAll
    static void stop() {
        if (light != null) {
            light.close();
        }
        node.close();
    }

    private static List<String> hashes(JsonNode reply) {
        List<String> hashes = new ArrayList<>();
        reply.path("messages").forEach(m -> hashes.add(m.path("messageHash").asText()));
        return hashes;
    }

    private static List<Long> timestamps(JsonNode reply) {
        List<Long> t = new ArrayList<>();
        reply.path("messages").forEach(m -> t.add(Long.parseLong(m.path("timestamp").asText())));
        return t;
    }

    @Test
    void pagingForwardWithPagesOfTwentyReturnsEveryMessageOnceInOrder() {
        JsonNode reply = light.call("store", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC, "pageSize", 20,
                "direction", "forward"), QUERY_TIMEOUT);

        assertThat(hashes(reply)).isEqualTo(published);
        assertThat(timestamps(reply)).isSorted();
        assertThat(reply.path("pages").asInt()).isEqualTo(13);
        assertThat(reply.path("undecoded").asInt()).isZero();
        JsonNode first = reply.path("messages").get(0);
        assertThat(first.path("pubsubTopic").asText()).isEqualTo(ServiceNode.TOPIC);
        assertThat(first.path("contentTopic").asText()).isEqualTo(ServiceNode.CONTENT_TOPIC);
    }

    @Test
    void pagingBackwardWithPagesOfTwentyReturnsEveryMessageOnceNewestPageFirst() {
        JsonNode reply = light.call("store", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC, "pageSize", 20,
                "direction", "backward"), QUERY_TIMEOUT);

        List<String> got = hashes(reply);
        assertThat(got).hasSize(COUNT).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(published);
        assertThat(got.subList(0, 20)).as("the first page is the newest, in chronological order")
                .isEqualTo(published.subList(COUNT - 20, COUNT));
        assertThat(reply.path("pages").asInt()).isEqualTo(13);
    }

    @Test
    void messagesAreFoundByTheirHashes() {
        List<String> wanted = List.of(published.get(5), published.get(100), published.get(249));

        JsonNode reply = light.call("store", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC, "hashes", wanted),
                QUERY_TIMEOUT);

        assertThat(hashes(reply)).containsExactlyInAnyOrderElementsOf(wanted);
        assertThat(MessageHash.parse(hashes(reply).get(0))).isNotNull();
    }

    @Test
    void malformedQueriesGetA400ClassAnswer() {
        JsonNode garbage = light.call("store", Map.of("raw", true, "requestBytes",
                Base64.getEncoder().encodeToString(new byte[]{(byte) 0xFF, (byte) 0xFF, (byte) 0xFF})), QUERY_TIMEOUT);
        assertThat(garbage.path("statusCode").asInt()).isEqualTo(400);

        // as nwaku's archive answers it: content topics without a pubsub topic match on every pubsub topic
        JsonNode contentWithoutPubsub = light.call("store", Map.of("raw", true, "contentTopic", ServiceNode.CONTENT_TOPIC),
                QUERY_TIMEOUT);
        assertThat(contentWithoutPubsub.path("statusCode").asInt()).isEqualTo(200);

        JsonNode badCursor = light.call("store", Map.of("raw", true, "contentTopic", ServiceNode.CONTENT_TOPIC,
                "pubsubTopic", ServiceNode.TOPIC, "cursor", "0x" + "00".repeat(32)), QUERY_TIMEOUT);
        assertThat(badCursor.path("statusCode").asInt()).isEqualTo(400);
    }
}
