package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.node.RlnCases.Case;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.testkit.Anvil;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publishing to a node of The Waku Network that has no membership credentials of its own (issue 40, item 6), as nwaku
 * answers: REST {@code POST /relay/v1/messages} is 500 with nwaku's text; a real js-waku light node's lightpush v3 of a
 * message without a proof gets 504 {@code OUT_OF_RLN_PROOF}, and so does REST's lightpush v3 (its legacy route 503 with
 * nwaku's text); a lightpush
 * carrying a client's valid proof is validated, relayed to a js-libp2p receiver and archived; one whose proof fails
 * is 420 {@code INVALID_MESSAGE} ("RLN validation failed: invalid_proof") and goes nowhere.
 *
 * <p>This node derives external nullifiers as nwaku 0.37 and earlier did ({@code --rln-relay-nullifier-derivation
 * legacy}), so that the vectors' two cases of that derivation run at the node level too: A1-legacy is the valid
 * proof, R9-legacy (a valid proof of the default derivation) the one that fails. js-waku's encoder cannot carry a
 * given proof, so those two go as raw {@code LightPushRequest}s through the js-waku light node's own connection.
 */
@Tag("process")
class RlnPublishingNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CONTENT_TOPIC = "/myapp/1/rln/proto";

    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    @Test
    void withoutCredentialsTheNodeAnswersAsNwakuAndRelaysOnlyAClientsValidProof() {
        Anvil chain = closer.keep(RlnNode.twnChain());
        JsPeer receiver = closer.keep(RlnNode.gossipsubPeer("127.0.0.21", true));
        Case valid = RlnCases.get("A1-legacy");
        Case forged = RlnCases.get("R9-legacy");
        RlnNode node = closer.keep(RlnNode.start(dir, chain, RlnCases.EPOCH_E_NANOS + 200_000_000_000L,
                "--rln-relay-nullifier-derivation=legacy", RlnNode.staticNodes(List.of(receiver))));
        node.registerUpToSixty();
        node.awaitInMesh(receiver);

        // REST relay: nwaku's 500, whose text says why
        String body = "{\"payload\":\"" + base64("from REST") + "\",\"contentTopic\":\"" + CONTENT_TOPIC + "\"}";
        Http.Reply rest = node.rest.post("/relay/v1/messages/" + Http.topic(RlnCases.TOPIC), body);
        assertThat(rest.status()).isEqualTo(500);
        assertThat(rest.body()).isEqualTo("Failed to publish: error appending RLN proof to message: could not generate "
                + "rln-v2 proof: identity credentials are not set");
        Http.Reply auto = node.rest.post("/relay/v1/auto/messages", body);
        assertThat(auto.status()).isEqualTo(500);
        assertThat(auto.body()).isEqualTo(rest.body());

        JsPeer light = closer.keep(JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", node.process.multiaddr().toString(),
                "--cluster", "1", "--shards", "0"));
        assertThat(light.awaitEvent("pinned", e -> true, WAIT).path("connected").asBoolean()).isTrue();

        // lightpush v3 of a message without a proof: 504 OUT_OF_RLN_PROOF, through js-waku's SDK and raw
        JsonNode raw = light.call("lightpush", Map.of("raw", true, "contentTopic", CONTENT_TOPIC,
                "payload", base64("no proof")), WAIT);
        assertThat(raw.path("statusCode").asInt()).as("%s", raw).isEqualTo(504);
        assertThat(raw.path("statusDesc").asText()).contains("could not generate rln-v2 proof");
        JsonNode sdk = light.call("lightpush", Map.of("contentTopic", CONTENT_TOPIC, "payload", base64("no proof")),
                WAIT);
        assertThat(sdk.path("successes")).as("%s", sdk).isEmpty();
        System.out.printf("RlnPublishingNodeTest: js-waku's lightpush without a proof: %s; raw: %s %s%n",
                sdk.path("failures"), raw.path("statusCode"), raw.path("statusDesc"));
        // and REST's lightpush routes, served by this node's own lightpush: v3 504, legacy 503 with nwaku's texts
        String push = "{\"pubsubTopic\":\"" + RlnCases.TOPIC + "\",\"message\":" + body + "}";
        Http.Reply v3 = node.rest.post("/lightpush/v3/message", push);
        assertThat(v3.status()).as(v3.body()).isEqualTo(504);
        assertThat(v3.json().path("statusDesc").asText()).contains("could not generate rln-v2 proof");
        Http.Reply legacy = node.rest.post("/lightpush/v1/message", push);
        assertThat(legacy.status()).as(legacy.body()).isEqualTo(503);
        assertThat(legacy.body()).isEqualTo("Failed to request a message push: could not generate rln-v2 proof: "
                + "identity credentials are not set");

        // a client's valid proof (A1-legacy): validated, relayed to the receiver, archived
        node.clock.moveTo(RlnCases.groupClock(List.of(valid, forged), 0));
        JsonNode accepted = pushRaw(light, valid);
        assertThat(accepted.path("statusCode").asInt()).as("%s", accepted).isEqualTo(200);
        assertThat(accepted.path("relayPeerCount").asInt()).isEqualTo(1);
        receiver.awaitEvent("message", e -> e.path("data").asText().equals(valid.base64()), WAIT);
        Eventually.until("the pushed message is archived", WAIT, () -> node.rest.get(
                "/store/v3/messages?includeData=false&hashes=" + valid.hash()).json().path("messages").size() == 1);

        // a proof that fails (R9-legacy): 420 INVALID_MESSAGE with the RLN outcome, relayed nowhere, archived nowhere
        JsonNode refused = pushRaw(light, forged);
        assertThat(refused.path("statusCode").asInt()).as("%s", refused).isEqualTo(420);
        assertThat(refused.path("statusDesc").asText()).isEqualTo("RLN validation failed: invalid_proof");
        assertThat(node.metric(RlnCases.METER.get("valid"))).isEqualTo(1);
        assertThat(node.metric(RlnCases.METER.get("invalid_proof"))).isEqualTo(1);
        assertThat(node.rest.get("/store/v3/messages?includeData=false&hashes=" + forged.hash()).json()
                .path("messages")).isEmpty();
        assertThat(receiver.events("message")).as("the receiver's deliveries").hasSize(1);
        assertThat(node.clock.nowNanos()).as("validated within the cases' timestamp gap").isLessThan(
                Math.min(valid.deadlineNanos(), forged.deadlineNanos()));
        node.assertNoLeaks();
    }

    /** A lightpush v3 request carrying the case's WakuMessage, proof and all, through the light node's connection. */
    private static JsonNode pushRaw(JsPeer light, Case c) {
        LightPushRequest request = LightPushRequest.newBuilder().setRequestId("vector-" + c.id())
                .setPubsubTopic(RlnCases.TOPIC).setMessage(c.wakuMessage()).build();
        return light.call("lightpush", Map.of("raw", true, "contentTopic", CONTENT_TOPIC, "payload", base64("unused"),
                "requestBytes", Base64.getEncoder().encodeToString(request.toByteArray())), WAIT);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
