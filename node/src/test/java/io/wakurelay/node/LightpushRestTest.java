package io.wakurelay.node;

import io.wakurelay.node.config.ServicesConfig;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.store.StoreClientConfig;
import io.wakurelay.services.store.StoreServiceConfig;
import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** nwaku's POST /lightpush/v3/message: the node pushes through its own lightpush service and answers its status as HTTP's. */
class LightpushRestTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    @TempDir
    Path dir;

    private WakuNode start(String name) {
        return WakuNode.start(TestNodes.local(dir.resolve(name)).build());
    }

    private static String push(String pubsubTopic, String contentTopic, String text) {
        return "{" + (pubsubTopic == null ? "" : "\"pubsubTopic\":\"" + pubsubTopic + "\",") + "\"message\":{\"payload\":\""
                + java.util.Base64.getEncoder().encodeToString(text.getBytes()) + "\",\"contentTopic\":\"" + contentTopic + "\"}}";
    }

    @Test
    void aPushIsRelayedToThePeersAndArchivedThereAndTheAnswerCountsThem() {
        try (WakuNode a = start("a"); WakuNode b = WakuNode.start(TestNodes.local(dir.resolve("b")).host(TestNodes.hostWithStaticPeer(a.multiaddr())).build())) {
            Http restA = new Http(a.restAddress());
            Eventually.until("B is A's relay peer", Duration.ofSeconds(20), () -> restA.post("/lightpush/v3/message",
                    push(TOPIC, "/app/1/probe/proto", "probe " + System.nanoTime())).status() == 200);

            Http.Reply pushed = restA.post("/lightpush/v3/message", push(TOPIC, "/app/1/lp/proto", "pushed"));

            assertThat(pushed.status()).isEqualTo(200);
            assertThat(pushed.json().get("relayPeerCount").asInt()).isEqualTo(1);
            Http restB = new Http(b.restAddress());
            String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic("/app/1/lp/proto");
            Eventually.until("B archived it", Duration.ofSeconds(10), () -> restB.get(query).json().get("messages").size() == 1);
        }
    }

    @Test
    void refusalsCarryNwakusLightpushStatusesAsHttpStatuses() {
        try (WakuNode alone = start("alone"); WakuNode off = WakuNode.start(TestNodes.local(dir.resolve("off"))
                .services(new ServicesConfig(StoreServiceConfig.DEFAULTS, null, FilterConfig.DEFAULTS, StoreClientConfig.DEFAULTS)).build())) {
            Http rest = new Http(alone.restAddress());
            Http.Reply noPeers = rest.post("/lightpush/v3/message", push(TOPIC, "/app/1/lp/proto", "x"));
            assertThat(noPeers.status()).as(noPeers.body()).isEqualTo(505);
            assertThat(noPeers.json().get("statusDesc").asText()).contains("no relay peers");
            assertThat(rest.post("/lightpush/v3/message", push("/waku/2/rs/0/7", "/app/1/lp/proto", "x")).status()).isEqualTo(421);
            Http.Reply derived = rest.post("/lightpush/v3/message", push(null, "/app/1/lp/proto", "x"));
            assertThat(derived.status()).as("the shard derived by automatic sharding, on by default as in nwaku").isEqualTo(505);
            assertThat(derived.json().get("statusDesc").asText()).contains("/waku/2/rs/0/0");
            try (WakuNode staticOnly = WakuNode.start(TestNodes.local(dir.resolve("static")).autoSharding(null).build())) {
                JsonNode noTopic = new Http(staticOnly.restAddress()).post("/lightpush/v3/message",
                        push(null, "/app/1/lp/proto", "x")).json();
                assertThat(noTopic.get("statusDesc").asText()).contains("pubsub_topic is required");
            }
            assertThat(rest.post("/lightpush/v3/message", "{\"pubsubTopic\":\"" + TOPIC + "\"}").status()).isEqualTo(400);
            assertThat(rest.post("/lightpush/v3/message", "[]").status()).isEqualTo(400);
            Http.Reply notServed = new Http(off.restAddress()).post("/lightpush/v3/message", push(TOPIC, "/app/1/lp/proto", "x"));
            // nwaku mounts its lightpush client on every node, so the route is always there (rest_api/endpoint/builder.nim);
            // with no service of its own and no service peer it answers 503 in these words (lightpush/handlers.nim)
            assertThat(notServed.status()).as(notServed.body()).isEqualTo(503);
            assertThat(notServed.json().get("statusDesc").asText()).isEqualTo("No suitable service peer & no discovery method");
        }
    }
}
