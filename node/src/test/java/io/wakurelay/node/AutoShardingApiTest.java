package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** nwaku's /relay/v1/auto endpoints: content topics mapped to shards by automatic sharding. */
class AutoShardingApiTest {
    /** On shard 3 of 8 (js-waku computes the same: AutoShardingTest). */
    private static final String CHAT = "/toychat/2/huilong/proto";
    private static final String CHAT_PATH = Http.topic(CHAT);
    @TempDir
    Path dir;

    private NodeConfigBuilder local() {
        return TestNodes.local(dir.resolve("n" + System.nanoTime()));
    }

    /** Automatic sharding over 8 shards of cluster 1, relaying {@code shards} (as nwaku does all 8 when none is named). */
    private WakuNode autoSharded(IntStream shards) {
        List<String> topics = shards.mapToObj(shard -> "/waku/2/rs/1/" + shard).toList();
        return WakuNode.start(local().autoSharding(new AutoSharding(1, 8))
                .relay(RelayConfig.builder().clusterId(1).pubsubTopics(topics).build()).build());
    }

    private static String message(String text) {
        return "{\"payload\":\"" + java.util.Base64.getEncoder().encodeToString(text.getBytes()) + "\",\"contentTopic\":\"" + CHAT + "\"}";
    }

    @Test
    void aMessagePublishedByContentTopicGoesToItsShardAndIsCachedForItsContentTopic() {
        try (WakuNode node = autoSharded(IntStream.range(0, 8))) {
            Http rest = new Http(node.restAddress());
            assertThat(rest.post("/relay/v1/auto/subscriptions", "[\"" + CHAT + "\"]").status()).isEqualTo(200);

            assertThat(rest.post("/relay/v1/auto/messages", message("hello")).status()).isEqualTo(200);

            JsonNode cached = rest.get("/relay/v1/auto/messages/" + CHAT_PATH).json();
            assertThat(cached).hasSize(1);
            assertThat(cached.get(0).get("contentTopic").asText()).isEqualTo(CHAT);
            assertThat(rest.get("/relay/v1/auto/messages/" + CHAT_PATH).json()).as("drained").isEmpty();
            String query = "/store/v3/messages?pubsubTopic=" + Http.topic("/waku/2/rs/1/3") + "&contentTopics=" + CHAT_PATH;
            Eventually.until("archived on shard 3", Duration.ofSeconds(10),
                    () -> rest.get(query).json().get("messages").size() == 1);
        }
    }

    @Test
    void aContentTopicsShardIsRelayedOnlyWhileSubscribed() {
        try (WakuNode node = autoSharded(IntStream.of(0))) {
            Http rest = new Http(node.restAddress());
            assertThat(rest.post("/relay/v1/auto/messages", message("early")).status())
                    .as("published to whoever relays shard 3, as nwaku does").isEqualTo(200);
            assertThat(node.relay().subscriptions()).as("publishing relays nothing more").containsExactly("/waku/2/rs/1/0");

            assertThat(rest.post("/relay/v1/auto/subscriptions", "[\"" + CHAT + "\"]").status()).isEqualTo(200);
            assertThat(rest.post("/relay/v1/auto/messages", message("now")).status()).isEqualTo(200);

            assertThat(rest.delete("/relay/v1/auto/subscriptions", "[\"" + CHAT + "\"]").status()).isEqualTo(200);
            assertThat(node.relay().subscriptions()).as("shard 3 dropped").containsExactly("/waku/2/rs/1/0");
            assertThat(rest.get("/relay/v1/auto/messages/" + CHAT_PATH).status()).isEqualTo(404);
            assertThat(rest.post("/relay/v1/messages/" + Http.topic("/waku/2/rs/1/0"),
                    "{\"payload\":\"aGk=\",\"contentTopic\":\"/app/1/zero/proto\"}").status()).as("shard 0 stays").isEqualTo(200);
        }
    }

    /**
     * Publishing and subscribing say that automatic sharding is off, or why a content topic is bad (400); reading a
     * cache nothing could subscribe to is a 404, as nwaku answers it (its cache lookup comes first; it was a 400 here).
     */
    @Test
    void withoutAutomaticShardingTheAutoEndpointsSaySoAndBadContentTopicsAreA400() {
        try (WakuNode off = WakuNode.start(local().autoSharding(null).build()); WakuNode on = autoSharded(IntStream.range(0, 8))) {
            Http rest = new Http(off.restAddress());
            assertThat(rest.post("/relay/v1/auto/messages", message("x")).json().get("error").asText())
                    .contains("--num-shards-in-network");
            assertThat(rest.post("/relay/v1/auto/subscriptions", "[\"" + CHAT + "\"]").status()).isEqualTo(400);
            Http.Reply offCache = rest.get("/relay/v1/auto/messages/" + CHAT_PATH);
            assertThat(offCache.status()).as(offCache.body()).isEqualTo(404);
            assertThat(offCache.json().get("error").asText()).contains("--num-shards-in-network");
            Http auto = new Http(on.restAddress());
            assertThat(auto.post("/relay/v1/auto/subscriptions", "[\"chat\"]").status()).isEqualTo(400);
            assertThat(auto.post("/relay/v1/auto/subscriptions", "[\"/1/toychat/2/huilong/proto\"]").json().get("error").asText())
                    .contains("generation 0");
            assertThat(auto.get("/relay/v1/auto/messages/" + Http.topic("/x/1/y/proto")).status()).isEqualTo(404);
            assertThat(auto.get("/relay/v1/auto/messages/" + Http.topic("chat")).status()).as("not a content topic").isEqualTo(404);
        }
    }

    /** nwaku decodes an empty list and subscribes to nothing: 200 (it was a 400 here). */
    @Test
    void anEmptyListOfContentTopicsChangesNothingAndIsA200AsInNwaku() {
        try (WakuNode on = autoSharded(IntStream.of(0))) {
            Http auto = new Http(on.restAddress());
            assertThat(auto.post("/relay/v1/auto/subscriptions", "[]").status()).isEqualTo(200);
            assertThat(auto.delete("/relay/v1/auto/subscriptions", "[]").status()).isEqualTo(200);
            assertThat(on.relay().subscriptions()).containsExactly("/waku/2/rs/1/0");
        }
    }
}
