package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Messages a js-waku relay node publishes land in our node's archive under the RFC 14 hash js-waku computes. */
@Tag("process")
@Tag("process")
class JsWakuArchiveTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void messagesPublishedByJsWakuAreArchivedUnderTheHashJsWakuComputes() {
        try (WakuNode node = WakuNode.start(TestNodes.local(dir).build());
             JsPeer waku = JsPeer.start(JsPeer.Script.RELAY_NODE, List.of("--cluster", "0", "--shards", "0", "--timeout-s", "120"))) {
            node.host().dial(Multiaddr.parse(waku.addrs().get(0))).block(WAIT);
            Eventually.until("js-waku is in the mesh", WAIT, () -> node.relay().mesh().getOrDefault("/waku/2/rs/0/0", List.of()).size() == 1);

            List<String> hashes = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                JsonNode sent = waku.call("publish", Map.of("contentTopic", "/js/1/archive/proto",
                        "payload", Base64.getEncoder().encodeToString(("from js-waku " + i).getBytes())), WAIT);
                hashes.add(sent.path("messageHash").asText());
            }

            Http rest = new Http(node.restAddress());
            Eventually.until("every message is archived", WAIT, () -> ArchivedMessages.stored(rest, hashes) == hashes.size());
            JsonNode stored = rest.get("/store/v3/messages?includeData=true&hashes=" + hashes.get(0)).json();
            assertThat(stored.get("messages").get(0).get("message").get("contentTopic").asText()).isEqualTo("/js/1/archive/proto");
        }
    }
}
