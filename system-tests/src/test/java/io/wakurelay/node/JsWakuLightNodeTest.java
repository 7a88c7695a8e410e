package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A js-waku light node uses a running node as its service node, as a js-waku app would: it subscribes with filter,
 * publishes with lightpush, gets its own message pushed back, and finds it with a Store v3 query; the second node
 * finds it in the first one's store through REST's {@code peerAddr}. This is the node's wiring of the services
 * (their protocol details are tested in the services module).
 */
@Tag("process")
@Tag("process")
class JsWakuLightNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CONTENT_TOPIC = "/js/1/light/proto";

    @TempDir
    Path dir;

    private WakuNode node(String name) {
        return WakuNode.start(TestNodes.local(dir.resolve(name)).build());
    }

    @Test
    void aJsWakuLightNodeSubscribesPublishesAndQueriesThroughTheNode() {
        try (WakuNode served = WakuNode.start(TestNodes.local(dir.resolve("a")).rest(TestNodes.rest().admin(true).build()).build());
             WakuNode second = node("b")) {
            second.host().dial(served.multiaddr()).block(WAIT);
            Eventually.until("the two nodes are in each other's mesh", WAIT,
                    () -> served.relay().mesh().getOrDefault("/waku/2/rs/0/0", List.of()).size() == 1);
            try (JsPeer light = JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", served.multiaddr().toString())) {
                assertThat(light.awaitEvent("pinned", e -> true, WAIT).path("connected").asBoolean()).isTrue();
                light.call("filterSubscribe", Map.of("contentTopic", CONTENT_TOPIC), WAIT);
                // nwaku's admin view of the filter service's subscribers
                JsonNode subscribers = new Http(served.restAddress()).get("/admin/v1/filter/subscriptions").json();
                assertThat(subscribers).hasSize(1);
                assertThat(subscribers.get(0).path("peerId").asText()).startsWith("12D3Koo");
                assertThat(subscribers.get(0).path("filterCriteria").toString())
                        .isEqualTo("[{\"pubsubTopic\":\"/waku/2/rs/0/0\",\"contentTopic\":\"" + CONTENT_TOPIC + "\"}]");

                JsonNode pushed = light.call("lightpush", Map.of("contentTopic", CONTENT_TOPIC,
                        "payload", Base64.getEncoder().encodeToString("hello from a light node".getBytes(StandardCharsets.UTF_8))), WAIT);
                assertThat(pushed.path("failures")).as("lightpush failures: %s", pushed.path("failures")).isEmpty();
                String hash = pushed.path("messageHash").asText();

                JsonNode filtered = light.awaitEvent("message", e -> hash.equals(e.path("messageHash").asText()), WAIT);
                assertThat(filtered.path("contentTopic").asText()).isEqualTo(CONTENT_TOPIC);
                Http restA = new Http(served.restAddress());
                Http restB = new Http(second.restAddress());
                Eventually.until("both nodes archive it", WAIT,
                        () -> ArchivedMessages.stored(restA, List.of(hash)) == 1 && ArchivedMessages.stored(restB, List.of(hash)) == 1);

                JsonNode stored = light.call("store", Map.of("contentTopic", CONTENT_TOPIC), WAIT);
                assertThat(stored.path("messages").findValuesAsText("messageHash")).containsExactly(hash);

                String peerAddr = URLEncoder.encode(served.multiaddr().toString(), StandardCharsets.UTF_8);
                JsonNode remote = restB.get("/store/v3/messages?includeData=true&requestId=r1&peerAddr=" + peerAddr
                        + "&hashes=" + hash).json();
                assertThat(remote.path("statusCode").asInt()).as("%s", remote).isEqualTo(200);
                assertThat(remote.path("requestId").asText()).isEqualTo("r1");
                assertThat(remote.path("messages").get(0).path("messageHash").asText()).isEqualTo(hash);
                assertThat(remote.path("messages").get(0).path("message").path("contentTopic").asText()).isEqualTo(CONTENT_TOPIC);
            }
        }
    }

    @Test
    void aRestQueryOfAPeerThatCannotBeReachedOrIsNotAMultiaddrSaysSo() {
        try (WakuNode node = node("a")) {
            Http rest = new Http(node.restAddress());
            Http.Reply bad = rest.get("/store/v3/messages?peerAddr=127.0.0.1:60000");
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.body()).as("nwaku's words").startsWith("Failed parsing remote peer info: ");

            Multiaddr gone = Multiaddr.parse("/ip4/127.0.0.1/tcp/1/p2p/" + node.peerId());
            JsonNode unreachable = rest.get("/store/v3/messages?requestId=r2&peerAddr="
                    + URLEncoder.encode(gone.toString(), StandardCharsets.UTF_8)).json();
            assertThat(unreachable.path("statusCode").asInt()).isEqualTo(504);
            assertThat(unreachable.path("requestId").asText()).isEqualTo("r2");
        }
    }
}
