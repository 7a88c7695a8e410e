package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** With --rest-admin, the peers of a node can be listed and added over REST. */
class AdminApiTest {
    @TempDir
    Path dir;

    private WakuNode start(String name, String... extra) {
        String[] base = {"--data-dir", dir.resolve(name).toString(), "--listen-address", "127.0.0.1", "--tcp-port", "0",
                "--rest-port", "0", "--metrics-server", "false", "--store", "false", "--rest-admin", "true"};
        String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(extra)).toArray(String[]::new);
        return WakuNode.start(NodeMain.parse(args, Map.of()));
    }

    @Test
    void listsPeersAndAddsThemAtRunTime() {
        try (WakuNode a = start("a"); WakuNode b = start("b")) {
            Http restB = new Http(b.restAddress());
            assertThat(restB.get("/admin/v1/peers").json()).isEmpty();
            assertThat(restB.post("/admin/v1/peers", "[\"127.0.0.1:" + a.peerAddress().getPort() + "\"]").status()).isEqualTo(200);
            Eventually.until(Duration.ofSeconds(20), "B is connected to A", () -> restB.get("/admin/v1/peers").json().size() == 1);
            JsonNode peer = restB.get("/admin/v1/peers").json().get(0);
            assertThat(peer.get("nodeId").asText()).isEqualTo(a.nodeId());
            assertThat(peer.get("direction").asText()).isEqualTo("outbound");
            assertThat(peer.get("pubsubTopics").toString()).contains("/waku/2/rs/0/0");
            assertThat(peer.get("connectedSince").asText()).isNotBlank();
            assertThat(restB.post("/admin/v1/peers", "[\"nohost\"]").status()).isEqualTo(400);
        }
    }
}
