package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our nodes and ChainSafe's discv5 (@chainsafe/discv5 10.0.1) on 127.0.0.1: the JS node pings node A and reads A's
 * record (with its Waku fields) by FINDNODE 0; node B, given only the JS node's record as its bootstrap node, finds
 * A's record through it and dials A.
 */
@Tag("process")
class ChainsafeDiscv5NodeTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closer = new Closer();

    private WakuNode start(String name, Discv5DiscoveryConfig discv5) {
        NodeConfigBuilder b = TestNodes.local(dir.resolve(name)).host(TestNodes.host("127.0.0.1").build()).archive(null)
                .rest(null)
                .discovery(DiscoveryConfig.DEFAULTS.toBuilder().discv5(discv5).build());
        return closer.keep(WakuNode.start(b.build()));
    }

    @Test
    void theJsNodeReadsOurRecordAndOurNodeFindsAPeerThroughIt() throws Exception {
        Discv5DiscoveryConfig on = Discv5DiscoveryConfig.DEFAULTS.toBuilder().enabled(true).udpPort(0)
                .lookupInterval(Duration.ofMillis(300)).build();
        WakuNode a = start("a", on);
        JsPeer js = closer.keep(JsPeer.start(JsPeer.Script.DISCV5_NODE, "--timeout-s", "60"));

        JsonNode pong = js.call("ping", Map.of("enr", a.enrUri()), Duration.ofSeconds(15));
        assertThat(pong.get("enrSeq").asLong()).isEqualTo(a.enr().seq());
        JsonNode found = js.call("findNode", Map.of("enr", a.enrUri(), "distances", List.of(0)), Duration.ofSeconds(15));
        assertThat(texts(found)).singleElement().satisfies(text -> {
            Enr read = Enr.parse(text);
            assertThat(read).isEqualTo(a.enr());
            assertThat(read.waku2()).isPresent();
            assertThat(read.relayShards()).isPresent();
        });
        // the JS node keeps A in its table once A answered
        Eventually.until(() -> texts(js.call("table", Map.of(), Duration.ofSeconds(15))).contains(a.enrUri()),
                () -> "A is not in the JS node's table");

        Enr theirs = Enr.parse(js.readyLine().get("enr").asText());
        WakuNode b = start("b", on.toBuilder().bootstrap(List.of(theirs)).build());
        Eventually.until(() -> b.host().connection(a.host().peerId()).isPresent(),
                () -> "B did not find and dial A through the JS node");
    }

    private static List<String> texts(JsonNode reply) {
        List<String> out = new ArrayList<>();
        reply.get("enrs").forEach(n -> out.add(n.asText()));
        return out;
    }
}
