package io.wakurelay.services;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.testkit.Closer;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A js-waku light node pinned to our node subscribes with filter v2: it receives every message published on our
 * mesh for its content topic (and none of another), and none after it unsubscribes.
 */
@Tag("process")
class JsWakuFilterInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String OTHER_CONTENT_TOPIC = "/wakurelay/1/other/proto";
    @TempDir
    Path dir;
    @RegisterExtension
    final Closer closer = new Closer();

    private static List<String> publish(ServiceNode node, int from, int count, String contentTopic) {
        List<String> hashes = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            MessageHash h = node.publish(Messages.message(i, 200, Messages.nowNanos(), contentTopic));
            hashes.add(h.toHex());
        }
        return hashes;
    }

    private static List<String> received(JsPeer light) {
        return light.events("message").stream().map(e -> e.path("messageHash").asText()).toList();
    }

    @Test
    void aSubscribedLightNodeReceivesEveryMessageOfItsContentTopicFromTheMeshAndNoneAfterUnsubscribing() {
        ServiceNode served =
                closer.keep(new ServiceNode(0, dir, ServiceNode.Options.none().withFilter(FilterConfig.DEFAULTS)));
        ServiceNode publisher = closer.keep(new ServiceNode(1, dir, ServiceNode.Options.none()));
        served.connectRelay(publisher);
        JsPeer light = closer.keep(JsPeer.start(JsPeer.Script.LIGHT_NODE, "--peer", served.address().toString()));
        assertThat(light.awaitEvent("pinned", e -> true, WAIT).path("connected").asBoolean()).isTrue();

        JsonNode subscribed = light.call("filterSubscribe", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC), WAIT);
        assertThat(subscribed.path("pubsubTopic").asText()).isEqualTo(ServiceNode.TOPIC);
        assertThat(served.filter.subscriberCount()).isEqualTo(1);

        List<String> wanted = publish(publisher, 0, 20, ServiceNode.CONTENT_TOPIC);
        publish(publisher, 100, 5, OTHER_CONTENT_TOPIC);
        wanted.addAll(publish(served, 20, 5, ServiceNode.CONTENT_TOPIC)); // published by the serving node itself

        Eventually.until(() -> received(light).size() >= wanted.size(), WAIT, () -> received(light).size() + " messages");
        assertThat(received(light)).containsExactlyInAnyOrderElementsOf(wanted);
        JsonNode first = light.events("message").get(0);
        assertThat(first.path("contentTopic").asText()).isEqualTo(ServiceNode.CONTENT_TOPIC);
        assertThat(first.path("pubsubTopic").asText()).isEqualTo(ServiceNode.TOPIC);

        light.call("filterUnsubscribe", Map.of("contentTopic", ServiceNode.CONTENT_TOPIC), WAIT);
        Eventually.until(() -> served.filter.subscriberCount() == 0, WAIT, () -> "still subscribed");
        publish(publisher, 200, 5, ServiceNode.CONTENT_TOPIC);
        Eventually.holdsFor(Duration.ofSeconds(2), () -> received(light).size() == wanted.size(),
                () -> received(light).size() + " messages");
    }
}
