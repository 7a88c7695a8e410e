package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A js-waku light node (@waku/sdk 0.0.36, @waku/discovery 0.0.13) given only our node A asks it for peers and gets
 * the record of A's peer C, which @waku/enr decodes into C's peer id, address, capabilities and shards; js-waku's own
 * peer exchange discovery finds C the same way.
 */
@Tag("process")
class JsWakuPeerExchangeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void aJsWakuLightNodeLearnsOurNodesPeerByPeerExchange() {
        WakuNode c = closer.keep(WakuNode.start(TestNodes.local(dir.resolve("c"))
                .host(TestNodes.host("127.0.0.4").build()).archive(null).rest(null).build()));
        Enr cRecord = c.enr();
        WakuNode a = closer.keep(WakuNode.start(TestNodes.local(dir.resolve("a"))
                .host(TestNodes.host("127.0.0.2").staticPeers(List.of(cRecord.dialAddresses().get(0))).build())
                .discovery(DiscoveryConfig.DEFAULTS.toBuilder().staticRecords(List.of(cRecord)).build())
                .archive(null).rest(null).build()));
        Eventually.until(() -> a.host().connection(c.host().peerId()).isPresent(), () -> "A did not reach C");

        JsPeer light = closer.keep(JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", a.multiaddr().toString(),
                "--peer-exchange"));

        JsonNode answer = light.call("peerExchange", Map.of("numPeers", 5), WAIT);
        assertThat(answer.get("records")).hasSize(1);
        JsonNode record = answer.get("records").get(0);
        assertThat(Base64.getDecoder().decode(record.get("enr").asText())).isEqualTo(cRecord.encoded());
        assertThat(record.get("peerId").asText()).isEqualTo(c.peerId());
        assertThat(record.get("ip").asText()).isEqualTo("127.0.0.4");
        assertThat(record.get("tcp").asInt()).isEqualTo(c.peerAddress().getPort());
        assertThat(record.get("locationMultiaddrs").toString()).contains("/ip4/127.0.0.4/tcp/" + c.peerAddress().getPort());
        assertThat(record.get("waku2").get("relay").asBoolean()).isTrue();
        assertThat(record.get("shardInfo").get("clusterId").asInt()).isZero();
        assertThat(record.get("shardInfo").get("shards").toString()).isEqualTo("[0]");

        JsonNode found = light.awaitEvent("discovery", e -> e.get("peerId").asText().equals(c.peerId()), WAIT);
        assertThat(found.get("multiaddrs").toString()).contains("/ip4/127.0.0.4/tcp/" + c.peerAddress().getPort());
        // at least once for our query and once for js-waku's own discovery
        java.util.regex.Matcher sent = java.util.regex.Pattern.compile("(?m)^waku_px_peers_sent_total (\\S+)$")
                .matcher(a.metrics().scrape());
        assertThat(sent.find()).isTrue();
        assertThat(Double.parseDouble(sent.group(1))).isGreaterThanOrEqualTo(2.0);
    }
}
