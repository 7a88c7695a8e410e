package io.wakurelay.services;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.lightpush.LightpushConfig;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A js-waku light node pinned to our node publishes with lightpush v3: the message is relayed to a second node of
 * ours and archived by both, and js-waku counts the push a success; its raw requests get nwaku's statuses.
 */
@Tag("process")
class JsWakuLightpushInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aLightpushedMessageIsArchivedHereAndReachesASecondNodeOverRelay() {
        ServiceNode served =
                closer.keep(new ServiceNode(0, dir, ServiceNode.Options.none().withLightpush(LightpushConfig.DEFAULTS)));
        ServiceNode second = closer.keep(new ServiceNode(1, dir, ServiceNode.Options.none()));
        served.connectRelay(second);
        JsPeer light = closer.keep(JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", served.address().toString()));
        assertThat(light.awaitEvent("pinned", e -> true, WAIT).path("connected").asBoolean()).isTrue();

        JsonNode pushed = light.call("lightpush", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC,
                "payload", base64("hello from js-waku")), WAIT);

        assertThat(pushed.path("protocol").asText()).isEqualTo(LightpushConfig.PROTOCOL_ID);
        assertThat(pushed.path("failures")).as("failures: %s", pushed.path("failures")).isEmpty();
        assertThat(pushed.path("successes").get(0).asText()).isEqualTo(served.host.peerId().toString());
        MessageHash hash = MessageHash.parse(pushed.path("messageHash").asText());
        served.awaitArchived(hash);
        second.awaitArchived(hash);

        JsonNode raw = light.call("lightpush", Map.of("raw", true, "requestId", "js-raw-1",
                "contentTopic", ServiceNode.CONTENT_TOPIC, "payload", base64("raw")), WAIT);
        assertThat(raw.path("requestId").asText()).isEqualTo("js-raw-1");
        assertThat(raw.path("statusCode").asInt()).isEqualTo(200);
        assertThat(raw.path("relayPeerCount").asInt()).isEqualTo(1);
        second.awaitArchived(MessageHash.parse(raw.path("messageHash").asText()));
    }

    @Test
    void withoutRelayPeersOrWithoutAPubsubTopicJsWakuGetsNwakusStatuses() {
        ServiceNode alone =
                closer.keep(new ServiceNode(0, dir, ServiceNode.Options.none().withLightpush(LightpushConfig.DEFAULTS)));
        JsPeer light = closer.keep(JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", alone.address().toString()));
        assertThat(light.awaitEvent("pinned", e -> true, WAIT).path("connected").asBoolean()).isTrue();

        JsonNode noPeers = light.call("lightpush", Map.of("raw", true, "contentTopic", ServiceNode.CONTENT_TOPIC,
                "payload", base64("nobody")), WAIT);
        assertThat(noPeers.path("statusCode").asInt()).isEqualTo(505);
        JsonNode sdk = light.call("lightpush", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC, "payload", base64("x")), WAIT);
        assertThat(sdk.path("successes")).isEmpty();
        assertThat(sdk.path("failures").get(0).path("error").asText()).isEqualTo("Remote peer rejected");

        JsonNode noTopic = light.call("lightpush", Map.of("raw", true, "omitPubsubTopic", true,
                "contentTopic", ServiceNode.CONTENT_TOPIC, "payload", base64("where")), WAIT);
        assertThat(noTopic.path("statusCode").asInt()).isEqualTo(420);
        assertThat(noTopic.path("statusDesc").asText()).contains("pubsub_topic is required");
    }
}
