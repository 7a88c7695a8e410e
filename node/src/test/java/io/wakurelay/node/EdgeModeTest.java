package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.node.config.EdgeConfig;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.wakurelay.node.LegacyLightpushRestTest.TOPIC;
import static io.wakurelay.node.LegacyLightpushRestTest.push;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Edge mode as nwaku runs it: a node started with {@code --relay=false}, {@code --storenode} and {@code --lightpushnode}
 * pointed at a full node of ours mounts no relay, pushes through the full node (v3 and the legacy v1 route) and asks
 * its store; its /relay routes answer as nwaku's do without relay.
 */
@Tag("slow") // 7 to 10 s: five nodes in turn, a relay mesh to form
class EdgeModeTest {
    private static final String RELAY = "/vac/waku/relay/2.0.0";
    @TempDir
    Path dir;

    private NodeConfigBuilder edge(String name, Multiaddr storeNode, Multiaddr lightpushNode) {
        return TestNodes.local(dir.resolve(name)).archive(null)
                .edge(EdgeConfig.DEFAULTS.toBuilder().relay(false).storeNode(storeNode).lightpushNode(lightpushNode).build());
    }

    @Test
    void anEdgeNodeMountsNoRelayAndAnswersItsRoutesAsNwakuDoes() {
        try (WakuNode edge = WakuNode.start(edge("edge", null, null).build())) {
            assertThat(edge.host().protocols()).doesNotContain(RELAY)
                    .as("nwaku's service nodes disconnect a peer that does not answer metadata").contains("/vac/waku/metadata/1.0.0");
            assertThat(edge.relay()).isNull();
            Http rest = new Http(edge.restAddress());
            for (Http.Reply reply : List.of(rest.get("/relay/v1/messages/" + Http.topic(TOPIC)),
                    rest.post("/relay/v1/subscriptions", "[\"" + TOPIC + "\"]"),
                    rest.post("/relay/v1/messages/" + Http.topic(TOPIC), "{\"payload\":\"eA==\",\"contentTopic\":\"/a/1/b/c\"}"),
                    rest.post("/relay/v1/auto/messages", "{\"payload\":\"eA==\",\"contentTopic\":\"/a/1/b/c\"}"))) {
                assertThat(reply.status()).isEqualTo(404);
                assertThat(reply.body()).isEqualTo("/relay endpoints are not available. Please check your configuration: --relay");
            }
            JsonNode health = rest.get("/health").json();
            assertThat(health.get("protocolsHealth").toString()).contains("{\"Relay\":\"NOT_MOUNTED\"}");
            // nwaku's lightpush client is always mounted: without a service peer (and no discovery) it says so
            Http.Reply v3 = rest.post("/lightpush/v3/message", push(TOPIC, "/app/1/edge/proto", "x"));
            assertThat(v3.status()).isEqualTo(503);
            assertThat(v3.json().get("statusDesc").asText()).isEqualTo("No suitable service peer & no discovery method");
            Http.Reply v1 = rest.post("/lightpush/v1/message", push(TOPIC, "/app/1/edge/proto", "x"));
            assertThat(v1.status()).isEqualTo(503);
            assertThat(v1.body()).isEqualTo("No suitable service peer & no discovery method");
        }
    }

    @Test
    void lightpushThroughTheEdgeReachesTheFullNodesRelayAndArchiveAndItsStoreAnswersTheEdge() {
        try (WakuNode full = WakuNode.start(TestNodes.local(dir.resolve("full")).build());
             WakuNode peer = WakuNode.start(TestNodes.local(dir.resolve("peer")).host(TestNodes.hostWithStaticPeer(full.multiaddr())).build());
             WakuNode edge = WakuNode.start(edge("edge", full.multiaddr(), full.multiaddr()).build())) {
            Http rest = new Http(edge.restAddress());
            Eventually.until("the full node has a relay peer", Duration.ofSeconds(20), () -> rest.post("/lightpush/v3/message",
                    push(TOPIC, "/app/1/probe/proto", "probe " + System.nanoTime())).status() == 200);

            Http.Reply v3 = rest.post("/lightpush/v3/message", push(TOPIC, "/app/1/edge/proto", "through v3"));
            assertThat(v3.status()).as(v3.body()).isEqualTo(200);
            assertThat(v3.json().get("relayPeerCount").asInt()).isEqualTo(1);
            Http.Reply v1 = rest.post("/lightpush/v1/message", push(TOPIC, "/app/1/edge/proto", "through v1"));
            assertThat(v1.status()).as(v1.body()).isEqualTo(200);
            assertThat(v1.body()).isEqualTo("OK");

            String query = "/store/v3/messages?includeData=true&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics="
                    + Http.topic("/app/1/edge/proto");
            Eventually.until("the full node's relay peer archived both", Duration.ofSeconds(10),
                    () -> new Http(peer.restAddress()).get(query).json().get("messages").size() == 2);
            Eventually.until("the full node archived both", Duration.ofSeconds(10),
                    () -> new Http(full.restAddress()).get(query).json().get("messages").size() == 2);

            Http.Reply viaEdge = rest.get(query); // no peerAddr: the edge has no store, so --storenode answers
            assertThat(viaEdge.status()).as(viaEdge.body()).isEqualTo(200);
            assertThat(payloads(viaEdge.json())).containsExactlyInAnyOrder("through v3", "through v1");
        }
    }

    @Test
    void aServiceNodeThatCannotBeReachedIsNwakusDialFailure() throws Exception {
        Multiaddr unreachable;
        try (WakuNode gone = WakuNode.start(TestNodes.local(dir.resolve("gone")).build()); ServerSocket probe = new ServerSocket(0)) {
            // a real peer id at a port where nothing listens
            unreachable = Multiaddr.parse("/ip4/127.0.0.1/tcp/" + probe.getLocalPort() + "/p2p/" + gone.peerId());
        }
        try (WakuNode edge = WakuNode.start(edge("edge", unreachable, unreachable).metrics(TestNodes.metrics()).build())) {
            Http rest = new Http(edge.restAddress());
            Http.Reply v3 = rest.post("/lightpush/v3/message", push(TOPIC, "/app/1/edge/proto", "x"));
            assertThat(v3.status()).isEqualTo(505);
            assertThat(v3.json().get("statusDesc").asText()).isEqualTo("Peer is not accessible: dial_failure - " + unreachable);
            Http.Reply v1 = rest.post("/lightpush/v1/message", push(TOPIC, "/app/1/edge/proto", "x"));
            assertThat(v1.status()).isEqualTo(503);
            assertThat(v1.body()).isEqualTo("Failed to request a message push: dial_failure");
            String metrics = new Http(edge.metricsAddress()).get("/metrics").body();
            assertThat(metrics).contains("waku_lightpush_client_requests_total{outcome=\"dial_failure\"} 2.0",
                    "waku_lightpush_client_requests_total{outcome=\"success\"} 0.0");
        }
    }

    @Test
    void aLegacyPushThroughTheEdgeThatReachesNoRelayPeerIsNotPublishedToAnyPeer() {
        try (WakuNode full = WakuNode.start(TestNodes.local(dir.resolve("full")).build());
             WakuNode edge = WakuNode.start(edge("edge", full.multiaddr(), full.multiaddr()).build())) {
            Http rest = new Http(edge.restAddress());
            Http.Reply v1 = rest.post("/lightpush/v1/message", push(TOPIC, "/app/1/edge/proto", "x"));
            assertThat(v1.status()).isEqualTo(503);
            assertThat(v1.body()).isEqualTo("Failed to request a message push: not_published_to_any_peer");
            Http.Reply v3 = rest.post("/lightpush/v3/message", push(TOPIC, "/app/1/edge/proto", "x"));
            assertThat(v3.status()).isEqualTo(505);
            // without a pubsub topic the edge derives the content topic's shard (automatic sharding, on by default as
            // in nwaku) and pushes it there: no relay peer on it either (static sharding's 420: LightpushRestTest)
            Http.Reply noTopic = rest.post("/lightpush/v3/message", push(null, "/app/1/edge/proto", "x"));
            assertThat(noTopic.status()).isEqualTo(505);
        }
    }

    private static List<String> payloads(JsonNode page) {
        List<String> payloads = new ArrayList<>();
        for (JsonNode m : page.get("messages")) {
            payloads.add(new String(java.util.Base64.getDecoder().decode(m.get("message").get("payload").asText())));
        }
        return payloads;
    }
}
