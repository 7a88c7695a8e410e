package io.wakurelay.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nwaku's REST caches the messages of every shard the node was started with (rest_api/endpoint/builder.nim), so a
 * script reads GET /relay/v1/messages/{topic} without subscribing first; DELETE /relay/v1/subscriptions of such a
 * shard unsubscribes it, and a publish on it is then refused.
 */
class StartUpTopicsRestTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String MESSAGE = "{\"payload\":\"c3RhcnQ=\",\"contentTopic\":\"/startup/1/cache/proto\"}";

    @TempDir
    Path dir;

    @Test
    void theShardsTheNodeWasStartedWithAreCachedAndCanBeUnsubscribed() {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).archive(null).build())) {
            Http rest = new Http(node.restAddress());
            assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), MESSAGE).status()).isEqualTo(200);

            Http.Reply cached = rest.get("/relay/v1/messages/" + Http.topic(TOPIC));
            assertThat(cached.status()).as("no POST /relay/v1/subscriptions needed, as nwaku").isEqualTo(200);
            assertThat(cached.json()).hasSize(1);
            assertThat(cached.json().get(0).get("payload").asText()).isEqualTo("c3RhcnQ=");

            assertThat(rest.delete("/relay/v1/subscriptions", "[\"" + TOPIC + "\"]").status()).isEqualTo(200);

            assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), MESSAGE).status())
                    .as("not relayed any more: a publish on it is refused, as nwaku").isEqualTo(400);
            assertThat(rest.get("/relay/v1/messages/" + Http.topic(TOPIC)).status()).isEqualTo(404);
            assertThat(rest.get("/debug/v1/info").json().get("pubsubTopics")).isEmpty();

            assertThat(rest.post("/relay/v1/subscriptions", "[\"" + TOPIC + "\"]").status()).isEqualTo(200);
            assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), MESSAGE).status())
                    .as("subscribed again").isEqualTo(200);
        }
    }
}
