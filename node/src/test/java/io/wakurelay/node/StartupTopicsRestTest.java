package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nwaku's REST caches the shards and content topics the node was started with (rest_api/endpoint/builder.nim), lets
 * DELETE /relay/v1/subscriptions unsubscribe them, runs automatic sharding over one shard by default
 * (--num-shards-in-network 1) and publishes an auto message on a shard it does not relay (issue 32, items 7 and 8;
 * each failed on the main branch before: 404, a shard kept relayed, 400, 400).
 */
class StartupTopicsRestTest {
    private static final String SHARD_0 = "/waku/2/rs/0/0";
    private static final String CONTENT = "/startup/1/chat/proto";

    @TempDir
    Path dir;

    private static String body(String contentTopic, String payload) {
        return "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload.getBytes()) + "\",\"contentTopic\":\""
                + contentTopic + "\",\"timestamp\":" + WakuNode.nowNanos() + "}";
    }

    private static List<String> payloads(JsonNode messages) {
        return IntStream.range(0, messages.size())
                .mapToObj(i -> new String(Base64.getDecoder().decode(messages.get(i).get("payload").asText()))).toList();
    }

    @Test
    void theStartUpShardIsCachedWithoutASubscriptionAndAutoShardingIsOnByDefault() {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).archive(null)
                .rest(TestNodes.rest().contentTopics(List.of(CONTENT)).build()).build())) {
            Http rest = new Http(node.restAddress());
            assertThat(rest.post("/relay/v1/messages/" + Http.topic(SHARD_0), body(CONTENT, "one")).status()).isEqualTo(200);
            // nwaku's default --num-shards-in-network 1: every content topic is on shard 0, and the auto routes work
            assertThat(rest.post("/relay/v1/auto/messages", body(CONTENT, "two")).body()).isEqualTo("OK");
            assertThat(rest.post("/relay/v1/auto/messages", body("/other/1/chat/proto", "three")).status()).isEqualTo(200);

            Http.Reply cached = rest.get("/relay/v1/messages/" + Http.topic(SHARD_0));
            assertThat(cached.status()).isEqualTo(200);
            assertThat(payloads(cached.json())).containsExactly("one", "two", "three");
            assertThat(cached.json().get(0).get("contentTopic").asText()).isEqualTo(CONTENT);
            assertThat(rest.get("/relay/v1/messages/" + Http.topic(SHARD_0)).json()).as("read once, as nwaku").isEmpty();
            assertThat(payloads(rest.get("/relay/v1/auto/messages/" + Http.topic(CONTENT)).json()))
                    .as("--content-topic's cache: its own messages only").containsExactly("one", "two");
        }
    }

    @Test
    void deletingAStartUpShardUnsubscribesItAndAPublishOnItThenAnswers400() {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).archive(null).build())) {
            Http rest = new Http(node.restAddress());
            assertThat(rest.delete("/relay/v1/subscriptions", "[\"" + SHARD_0 + "\"]").status()).isEqualTo(200);
            assertThat(node.relay().subscriptions()).doesNotContain(SHARD_0);
            Http.Reply publish = rest.post("/relay/v1/messages/" + Http.topic(SHARD_0), body(CONTENT, "late"));
            assertThat(publish.status()).isEqualTo(400);
            assertThat(publish.body()).isEqualTo("Failed to publish: Node not subscribed to topic: " + SHARD_0);
            assertThat(rest.get("/relay/v1/messages/" + Http.topic(SHARD_0)).status()).isEqualTo(404);
        }
    }

    @Test
    void anAutoPublishOnAShardTheNodeDoesNotRelayReachesThePeersThatRelayIt() {
        AutoSharding sharding = new AutoSharding(0, 8);
        String content = IntStream.range(0, 100).mapToObj(i -> "/app" + i + "/1/chat/proto")
                .filter(t -> sharding.shard(t) != 0).findFirst().orElseThrow();
        String shard = sharding.pubsubTopic(content);
        try (WakuNode relaysIt = WakuNode.start(TestNodes.local(dir.resolve("b")).archive(null).autoSharding(sharding)
                .relay(RelayConfig.builder().pubsubTopics(List.of(shard)).build()).build());
             WakuNode publisher = WakuNode.start(TestNodes.local(dir.resolve("a")).archive(null).autoSharding(sharding)
                     .relay(RelayConfig.builder().pubsubTopics(List.of(SHARD_0)).build()).build())) {
            publisher.host().dial(relaysIt.multiaddr()).block(Duration.ofSeconds(10));
            Eventually.until("the publisher knows the peer's shard", Duration.ofSeconds(10), () -> publisher.relay().peers()
                    .stream().anyMatch(p -> p.topics().contains(shard)));
            Http rest = new Http(publisher.restAddress());
            Http.Reply reply = rest.post("/relay/v1/auto/messages", body(content, "fanout"));
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(publisher.relay().subscriptions()).as("publishing subscribes nothing").doesNotContain(shard);
            Http restB = new Http(relaysIt.restAddress());
            Eventually.until("the peer that relays the shard has it in its start-up cache", Duration.ofSeconds(10),
                    () -> payloads(restB.get("/relay/v1/messages/" + Http.topic(shard)).json()).contains("fanout"));
        }
    }
}
