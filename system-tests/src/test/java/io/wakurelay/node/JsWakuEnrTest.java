package io.wakurelay.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.enr.RelayShards;
import io.wakurelay.discovery.enr.WakuCapabilities.Capability;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.testkit.JsPeer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our node's ENR read by js-waku's @waku/enr, and a record @waku/enr made read by us. */
@Tag("process")
class JsWakuEnrTest {

    private static final String WSS = "/dns4/node.example.org/tcp/443/wss";

    @TempDir
    static Path dataDir;
    static WakuNode node;
    static JsPeer tool;

    @BeforeAll
    static void start() {
        node = WakuNode.start(TestNodes.local(dataDir)
                .host(TestNodes.host("127.0.0.1").announceAddresses(List.of(
                        Multiaddr.parse("/ip4/127.0.0.1/tcp/60000"), Multiaddr.parse(WSS))).build())
                .relay(RelayConfig.builder().clusterId(2).pubsubTopics(List.of("/waku/2/rs/2/0", "/waku/2/rs/2/5"))
                        .build())
                .build());
        tool = JsPeer.start(JsPeer.Script.ENR_TOOL);
    }

    @AfterAll
    static void stop() {
        if (tool != null) {
            tool.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void jsWakuReadsOurRecordsAddressesCapabilitiesAndShards() {
        JsonNode read = tool.call("decode", Map.of("enr", node.enrUri()));
        assertThat(read.get("peerId").asText()).isEqualTo(node.peerId());
        assertThat(read.get("ip").asText()).isEqualTo("127.0.0.1");
        assertThat(read.get("tcp").asInt()).isEqualTo(60000);
        assertThat(read.get("multiaddrs").toString()).isEqualTo("[\"" + WSS + "\"]");
        assertThat(read.get("fullMultiaddrs").get(0).asText()).isEqualTo(WSS + "/p2p/" + node.peerId());
        JsonNode waku2 = read.get("waku2");
        assertThat(waku2.get("relay").asBoolean()).isTrue();
        assertThat(waku2.get("store").asBoolean()).isTrue();
        assertThat(waku2.get("filter").asBoolean()).isTrue();
        assertThat(waku2.get("lightPush").asBoolean()).isTrue();
        assertThat(read.get("shardInfo").get("clusterId").asInt()).isEqualTo(2);
        assertThat(read.get("shardInfo").get("shards").toString()).isEqualTo("[0,5]");
    }

    @Test
    void weReadARecordJsWakuSigned() {
        JsonNode made = tool.call("create", Map.of("tcp", 60001, "multiaddrs", List.of(WSS),
                "waku2", Map.of("relay", true, "lightPush", true), "clusterId", 3, "shards", List.of(1, 7)));
        Enr enr = Enr.parse(made.get("enr").asText());
        String peer = made.get("peerId").asText();
        assertThat(enr.peerId().toString()).isEqualTo(peer);
        assertThat(enr.dialAddresses()).containsExactly(Multiaddr.parse("/ip4/127.0.0.1/tcp/60001/p2p/" + peer),
                Multiaddr.parse(WSS + "/p2p/" + peer));
        assertThat(enr.waku2().orElseThrow().capabilities()).containsExactlyInAnyOrder(Capability.RELAY,
                Capability.LIGHTPUSH);
        assertThat(enr.relayShards()).contains(RelayShards.of(3, List.of(1, 7)));
    }
}
