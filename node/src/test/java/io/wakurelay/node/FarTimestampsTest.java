package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Timestamps are judged where nwaku judges them: its relay (and REST, and lightpush) takes a message whatever its
 * timestamp, and only its archive skips one more than 20 s from its clock (waku_archive, MaxMessageTimestampVariance),
 * counted in waku_archive_errors{type}. An nwaku peer forwarding such a message loses no score. (The window itself:
 * the archive's TimestampWindowTest.)
 */
class FarTimestampsTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aMessageFarFromTheClockIsPublishedAndRelayedButNotArchivedAndItsForwarderKeepsItsScore() {
        try (WakuNode a = WakuNode.start(TestNodes.local(dir.resolve("a")).metrics(TestNodes.metrics()).build());
             WakuNode b = WakuNode.start(TestNodes.local(dir.resolve("b")).metrics(TestNodes.metrics())
                     .rest(TestNodes.rest().admin(true).build()).host(TestNodes.hostWithStaticPeer(a.multiaddr())).build())) {
            Http restA = new Http(a.restAddress());
            Http restB = new Http(b.restAddress());
            Eventually.until("A and B relay to each other", Duration.ofSeconds(20),
                    () -> restB.get("/admin/v1/peers").json().toString().contains("\"meshTopics\":[\"" + TOPIC + "\"]"));
            long now = WakuNode.nowNanos();

            assertThat(publish(restA, "old", now - 3600 * SECOND).status()).as("nwaku's REST publishes it").isEqualTo(200);
            assertThat(publish(restA, "future", now + 3600 * SECOND).status()).isEqualTo(200);
            assertThat(publish(restA, "fresh", now).status()).isEqualTo(200);

            for (WakuNode node : new WakuNode[]{a, b}) {
                Http metrics = new Http(node.metricsAddress());
                Eventually.until("both far messages reached the archive, which skipped them", Duration.ofSeconds(10), () -> {
                    String text = metrics.get("/metrics").body();
                    return Http.metric(text, "waku_archive_errors_total{type=\"invalid_message_too_old\"}") == 1
                            && Http.metric(text, "waku_archive_errors_total{type=\"invalid_message_future_timestamp\"}") == 1;
                });
                Http rest = new Http(node.restAddress());
                Eventually.until("the fresh one is archived", Duration.ofSeconds(10), () -> archived(rest).size() == 1);
                assertThat(archived(rest).get(0).get("message").get("payload").asText()).isEqualTo("ZnJlc2g=");
                assertThat(Http.metric(metrics.get("/metrics").body(), "waku_relay_messages_accepted_total"))
                        .as("the relay accepted all three").isEqualTo(3);
            }
            JsonNode peer = restB.get("/admin/v1/peers").json().get(0);
            assertThat(peer.get("score").asDouble()).as("A, which sent them, is not penalised").isGreaterThanOrEqualTo(0);
        }
    }

    private static Http.Reply publish(Http rest, String payload, long timestamp) {
        String base64 = java.util.Base64.getEncoder().encodeToString(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return rest.post("/relay/v1/messages/" + Http.topic(TOPIC), "{\"payload\":\"" + base64
                + "\",\"contentTopic\":\"/window/1/test/proto\",\"timestamp\":" + timestamp + "}");
    }

    private static JsonNode archived(Http rest) {
        return rest.get("/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics="
                + Http.topic("/window/1/test/proto")).json().get("messages");
    }
}
