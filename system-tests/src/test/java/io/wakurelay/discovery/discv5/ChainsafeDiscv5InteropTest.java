package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.testkit.JsPeer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Our discv5 service against ChainSafe's (@chainsafe/discv5 10.0.1, interop/discv5/discv5-node.mjs), both on
 * 127.0.0.1, in both directions: the JS node pings us, asks for our record and talks to us; our node bootstraps from
 * the JS node and finds the records it knows.
 */
@Tag("process")
class ChainsafeDiscv5InteropTest {

    private static final Duration CALL = Duration.ofSeconds(15);
    /** The JS node's crypto is slower than ours, and CI machines are shared: 3 s an answer rather than 1 s. */
    private static final java.util.function.UnaryOperator<Discv5Config> PATIENT =
            c -> c.toBuilder().requestTimeout(Duration.ofSeconds(3)).build();

    @Test
    void theJsNodePingsOurNodeAndFindsOurRecord() throws Exception {
        try (LocalDiscv5Node ours = new LocalDiscv5Node(List.of(), PATIENT);
             JsPeer js = JsPeer.start(JsPeer.Script.DISCV5_NODE, "--timeout-s", "60")) {
            String ourText = ours.record().text();
            JsonNode pong = js.call("ping", Map.of("enr", ourText), CALL);
            assertThat(pong.get("enrSeq").asText()).isEqualTo("1");
            JsonNode found = js.call("findNode", Map.of("enr", ourText, "distances", List.of(0)), CALL);
            assertThat(texts(found)).hasSize(1);
            assertThat(Enr.parse(texts(found).get(0))).isEqualTo(ours.record());
            JsonNode talk = js.call("talk", Map.of("enr", ourText, "protocol", "wakurelay-test",
                    "payload", Base64.getEncoder().encodeToString(new byte[] {1, 2, 3})), CALL);
            assertThat(talk.get("response").asText()).isEmpty();
            // the JS node completed a handshake with us: we know its record and it is in our table
            Enr theirs = Enr.parse(js.readyLine().get("enr").asText());
            assertThat(ours.service.tableNodes()).extracting(NodeEntry::enr).contains(theirs);
        }
    }

    @Test
    void ourNodeBootstrapsFromTheJsNodeAndFindsTheRecordsItKnows() throws Exception {
        try (JsPeer js = JsPeer.start(JsPeer.Script.DISCV5_NODE, "--timeout-s", "60")) {
            Enr theirs = Enr.parse(js.readyLine().get("enr").asText());
            byte[] theirId = HexFormat.of().parseHex(js.readyLine().get("nodeId").asText());
            assertThat(theirs.nodeId()).isEqualTo(theirId);
            // three records the JS node knows, all at log distance 256 from it (so one FINDNODE bucket holds them)
            List<Enr> known = new ArrayList<>();
            while (known.size() < 3) {
                PrivateKey key = PrivateKey.generateSecp256k1();
                if (NodeIds.logDistance(NodeIds.of(key.publicKey().raw()), theirId) == 256) {
                    Enr record = LocalDiscv5Node.recordAt(key, 40_000 + known.size(), 1);
                    js.call("addEnr", Map.of("enr", record.text()), CALL);
                    known.add(record);
                }
            }
            try (LocalDiscv5Node ours = new LocalDiscv5Node(List.of(theirs), PATIENT)) {
                Message.Pong pong = ours.service.ping(NodeEntry.of(theirs).orElseThrow()).get(5, TimeUnit.SECONDS);
                assertThat(pong.enrSeq()).isEqualTo(theirs.seq());
                List<Enr> found = ours.service.lookup(known.get(0).nodeId()).get(15, TimeUnit.SECONDS);
                assertThat(found).contains(theirs).containsAll(known);
                // and the JS node learned our record from the handshake
                assertThat(texts(js.call("table", Map.of(), CALL)).stream().map(Enr::parse))
                        .contains(ours.record());
            }
        }
    }

    private static List<String> texts(JsonNode reply) {
        List<String> out = new ArrayList<>();
        reply.get("enrs").forEach(n -> out.add(n.asText()));
        return out;
    }
}
