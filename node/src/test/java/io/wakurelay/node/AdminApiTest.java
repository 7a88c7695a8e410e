package io.wakurelay.node;

import io.wakurelay.node.logging.LogLevels;
import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** With --rest-admin, the peers of a node can be listed and added over REST. */
class AdminApiTest {
    @TempDir
    Path dir;

    private WakuNode start(String name) {
        return WakuNode.start(TestNodes.local(dir.resolve(name)).archive(null).rest(TestNodes.rest().admin(true).build()).build());
    }

    @Test
    void listsPeersAndAddsThemAtRunTime() {
        try (WakuNode a = start("a"); WakuNode b = start("b")) {
            Http restB = new Http(b.restAddress());
            assertThat(restB.get("/admin/v1/peers").json()).isEmpty();
            assertThat(restB.post("/admin/v1/peers", "[\"" + a.multiaddr() + "\"]").status()).isEqualTo(200);
            Eventually.until("B is connected to A and knows its topics", Duration.ofSeconds(20), () -> {
                JsonNode peers = restB.get("/admin/v1/peers").json();
                return peers.size() == 1 && peers.get(0).get("connected").asText().equals("Connected")
                        && peers.get(0).get("pubsubTopics").toString().contains("/waku/2/rs/0/0");
            });
            JsonNode peer = restB.get("/admin/v1/peers").json().get(0);
            assertThat(peer.get("peerId").asText()).isEqualTo(a.peerId());
            assertThat(peer.get("multiaddr").asText()).isEqualTo(a.multiaddr().toString());
            assertThat(peer.get("direction").asText()).isEqualTo("outbound");
            assertThat(peer.get("origin").asText()).as("nwaku's PeerOrigin").isEqualTo("Static");
            assertThat(peer.get("shards").toString()).isEqualTo("[0]");
            assertThat(peer.get("protocols").toString()).contains("/vac/waku/relay/2.0.0", "/ipfs/ping/1.0.0");
            assertThat(peer.get("agent").asText()).startsWith("wakurelay/");
            assertThat(peer.get("score").isNumber()).as("a relay peer has a gossipsub score").isTrue();
            assertThat(restB.post("/admin/v1/peers", "[\"nohost\"]").status()).isEqualTo(400);
            assertThat(restB.post("/admin/v1/peers", "[]").status()).as("an empty list adds nobody, as in nwaku").isEqualTo(200);
            assertThat(restB.post("/admin/v1/peers", "{}").status()).as("not a list").isEqualTo(400);
            assertThat(restB.post("/admin/v1/peers", "[\"/ip4/127.0.0.1/tcp/1\"]").status())
                    .as("a multiaddr without /p2p cannot prove who it reaches").isEqualTo(400);
        }
    }

    /**
     * nwaku answers POST /admin/v1/peers once its dials finished: a script publishes right after and expects the new
     * peer to have the message (before, the answer came at once and the first message reached nobody).
     */
    @Test
    void aPeerAddedOverRestGetsAMessagePublishedRightAfterTheAnswer() {
        try (WakuNode a = start("a");
             WakuNode b = WakuNode.start(TestNodes.local(dir.resolve("b")).build())) {
            Http restA = new Http(a.restAddress());
            Http restB = new Http(b.restAddress());
            Http.Reply added = restA.post("/admin/v1/peers", "[\"" + b.multiaddr() + "\"]");
            assertThat(added.status()).isEqualTo(200);
            assertThat(added.body()).isEqualTo("OK");
            assertThat(restA.post("/relay/v1/messages/" + Http.topic("/waku/2/rs/0/0"),
                    "{\"payload\":\"Zmlyc3Q=\",\"contentTopic\":\"/admin/1/first/proto\"}").status()).isEqualTo(200);

            String query = "/store/v3/messages?pubsubTopic=" + Http.topic("/waku/2/rs/0/0") + "&contentTopics="
                    + Http.topic("/admin/1/first/proto");
            Eventually.until("B archived the message published right after A added it", Duration.ofSeconds(5),
                    () -> restB.get(query).json().get("messages").size() == 1);
        }
    }

    @Test
    void aPeerThatCannotBeReachedIsAFailureInTheAnswerAsNwakuSaysIt() {
        try (WakuNode a = start("a"); WakuNode b = start("b")) {
            Http restA = new Http(a.restAddress());
            // a listening port nobody answers on: refused at once
            String unreachable = "/ip4/127.0.0.1/tcp/1/p2p/16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b";
            Http.Reply reply = restA.post("/admin/v1/peers", "[\"" + b.multiaddr() + "\",\"" + unreachable + "\"]");

            assertThat(reply.status()).isEqualTo(400);
            assertThat(reply.body()).contains("Failed to connect to peer at index: 1 - " + unreachable)
                    .doesNotContain("index: 0");
            assertThat(restA.get("/admin/v1/peers").json().toString())
                    .as("the reachable peer is connected when the answer comes").contains(b.peerId(), "Connected");
        }
    }

    @Test
    void theLogLevelIsSetAtRunTimeWithNwakusNamesOnlyByAnAdmin() {
        try (WakuNode a = start("a")) {
            Http rest = new Http(a.restAddress());
            org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            try {
                assertThat(rest.post("/admin/v1/log-level/DEBUG", "").status()).isEqualTo(200);
                assertThat(root.isDebugEnabled()).isTrue();
                assertThat(rest.post("/admin/v1/log-level/NOTICE", "").status()).isEqualTo(200);
                assertThat(root.isDebugEnabled()).isFalse();
                assertThat(root.isInfoEnabled()).isTrue();
                assertThat(rest.post("/admin/v1/log-level/LOUD", "").status()).isEqualTo(400);
                assertThat(rest.get("/admin/v1/log-level/INFO").status()).as("nwaku's router: no such method here is a 404").isEqualTo(404);
            } finally {
                LogLevels.set("INFO");
            }
        }
    }
}
