package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nwaku's legacy {@code POST /lightpush/v1/message} on a relaying node that serves lightpush itself: nwaku's statuses
 * and its text/plain words (rest_api/endpoint/legacy_lightpush/handlers.nim, waku_lightpush_legacy/callbacks.nim).
 */
class LegacyLightpushRestTest {
    static final String TOPIC = "/waku/2/rs/0/0";
    @TempDir
    Path dir;

    static String push(String pubsubTopic, String contentTopic, byte[] payload) {
        return "{" + (pubsubTopic == null ? "" : "\"pubsubTopic\":\"" + pubsubTopic + "\",") + "\"message\":{\"payload\":\""
                + Base64.getEncoder().encodeToString(payload) + "\",\"contentTopic\":\"" + contentTopic + "\"}}";
    }

    static String push(String pubsubTopic, String contentTopic, String text) {
        return push(pubsubTopic, contentTopic, text.getBytes());
    }

    @Test
    void aPushReachingARelayPeerIsOkAndArchivedThere() {
        try (WakuNode a = WakuNode.start(TestNodes.local(dir.resolve("a")).build());
             WakuNode b = WakuNode.start(TestNodes.local(dir.resolve("b")).host(TestNodes.hostWithStaticPeer(a.multiaddr())).build())) {
            Http restA = new Http(a.restAddress());
            Eventually.until("B is A's relay peer", Duration.ofSeconds(20), () -> restA.post("/lightpush/v1/message",
                    push(TOPIC, "/app/1/probe/proto", "probe " + System.nanoTime())).status() == 200);

            Http.Reply pushed = restA.post("/lightpush/v1/message", push(TOPIC, "/app/1/legacy/proto", "legacy"));

            assertThat(pushed.status()).isEqualTo(200);
            assertThat(pushed.body()).isEqualTo("OK");
            Http restB = new Http(b.restAddress());
            String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics="
                    + Http.topic("/app/1/legacy/proto");
            Eventually.until("B archived it", Duration.ofSeconds(10), () -> restB.get(query).json().get("messages").size() == 1);

            // issue 41 item 8: a content topic of 1,000 bytes is pushed, as nwaku pushes it (before: refused over 256)
            Http.Reply longTopic = restA.post("/lightpush/v1/message", push(TOPIC, "x".repeat(1000), "long"));
            assertThat(longTopic.status()).as(longTopic.body()).isEqualTo(200);
            // and a meta over 64 bytes is refused in the words the interop suite matches on
            String withMeta = "{\"pubsubTopic\":\"" + TOPIC + "\",\"message\":{\"payload\":\"bQ==\",\"contentTopic\":"
                    + "\"/app/1/legacy/proto\",\"meta\":\"" + Base64.getEncoder().encodeToString(new byte[1024]) + "\"}}";
            Http.Reply legacyMeta = restA.post("/lightpush/v1/message", withMeta);
            assertThat(legacyMeta.status()).isEqualTo(503);
            assertThat(legacyMeta.body()).startsWith("Failed to request a message push: ").contains("invalid length for Meta field");
            Http.Reply v3Meta = restA.post("/lightpush/v3/message", withMeta);
            assertThat(v3Meta.json().get("statusDesc").asText()).contains("invalid length for Meta field");
        }
    }

    @Test
    void refusalsAreNwakusLegacyStatusesAndWords() {
        // static sharding only (--num-shards-in-network 0), for nwaku's answer to a push without a pubsub topic
        try (WakuNode alone = WakuNode.start(TestNodes.local(dir.resolve("alone")).autoSharding(null).build())) {
            Http rest = new Http(alone.restAddress());

            Http.Reply noPeers = rest.post("/lightpush/v1/message", push(TOPIC, "/app/1/legacy/proto", "x"));
            assertThat(noPeers.status()).isEqualTo(503);
            assertThat(noPeers.body()).isEqualTo("Failed to request a message push: not_published_to_any_peer");

            Http.Reply tooLarge = rest.post("/lightpush/v1/message", push(TOPIC, "/app/1/legacy/proto", new byte[160_000]));
            assertThat(tooLarge.status()).isEqualTo(503);
            assertThat(tooLarge.body()).isEqualTo("Failed to request a message push: Message size exceeded maximum of 153600 bytes");

            Http.Reply noTopic = rest.post("/lightpush/v1/message", push(null, "/app/1/legacy/proto", "x"));
            assertThat(noTopic.status()).isEqualTo(503);
            assertThat(noTopic.body()).isEqualTo("Failed to request a message push: "
                    + "Pubsub topic must be specified when static sharding is enabled");

            Http.Reply noMessage = rest.post("/lightpush/v1/message", "{\"pubsubTopic\":\"" + TOPIC + "\"}");
            assertThat(noMessage.status()).isEqualTo(400);
            assertThat(noMessage.body()).startsWith("Invalid content body, could not decode: ");

            Http.Reply badMessage = rest.post("/lightpush/v1/message", "{\"message\":{\"payload\":\"!!\",\"contentTopic\":\"/a/1/b/c\"}}");
            assertThat(badMessage.status()).isEqualTo(400);
            assertThat(badMessage.body()).startsWith("Invalid message: ");

            Http.Reply empty = rest.post("/lightpush/v1/message", "");
            assertThat(empty.status()).isEqualTo(400);
            assertThat(empty.body()).isEqualTo("Missing content body");
        }
    }
}
