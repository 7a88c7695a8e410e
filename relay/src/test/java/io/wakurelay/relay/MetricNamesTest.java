package io.wakurelay.relay;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.NamingConvention;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.wakurelay.testkit.TestMessages.PUBSUB_TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The relay's meters are exactly the "Relay" rows of docs/metrics.md, under the names Prometheus shows. */
class MetricNamesTest {
    private static final Path METRICS_DOC = Path.of("..", "docs", "metrics.md");

    @Test
    void everyRelayMeterIsDocumentedAndEveryDocumentedRelayMetricExists() throws IOException {
        try (TestRelay a = TestRelay.start(TestRelay.config("a"));
             TestRelay b = TestRelay.start(TestRelay.config("b").withStaticPeers(List.of(a.address())))) {
            // both ends: b relays only to peers its own side has finished the handshake with
            Eventually.until("connected", () -> a.connectedTo(b) && b.connectedTo(a));
            PublishResult sent = b.publish(TestMessages.message(1, 10, TestMessages.nowNanos()));
            Eventually.until("relayed", () -> a.timesAccepted(sent.hash()) == 1);
            assertThatThrownBy(() -> a.publish(WakuMessage.getDefaultInstance())).isNotNull();
            try (RawPeer rude = RawPeer.connect(a.address())) {
                rude.sendRaw(new byte[] {1, 0});
                rude.closedWithin(Eventually.DEFAULT_TIMEOUT);
            }
            try (RawPeer leaving = RawPeer.connect(a.address())) {
                leaving.handshake("leaving", List.of(PUBSUB_TOPIC));
                Eventually.until("handshaken", () -> a.peerIds().contains("leaving"));
            }
            Eventually.until("disconnect counted", () -> a.counter("waku.relay.peer.disconnects", "reason", "closed") == 1);

            Set<String> registered = new TreeSet<>();
            for (Meter meter : a.registry.getMeters()) {
                registered.add(prometheusName(meter));
            }
            assertThat(registered).isEqualTo(documentedRelayMetrics());
        }
    }

    /** What the Prometheus registry shows for a meter: snake case, with the type's suffix. */
    private static String prometheusName(Meter meter) {
        String name = NamingConvention.snakeCase.name(meter.getId().getName(), meter.getId().getType());
        return switch (meter.getId().getType()) {
            case COUNTER -> name + "_total";
            case TIMER -> name + "_seconds";
            default -> name;
        };
    }

    private static Set<String> documentedRelayMetrics() throws IOException {
        String doc = Files.readString(METRICS_DOC);
        String relaySection = doc.substring(doc.indexOf("## Relay"), doc.indexOf("## ", doc.indexOf("## Relay") + 3));
        Set<String> names = new TreeSet<>();
        Matcher row = Pattern.compile("^\\| `(waku_relay_[a-z_]+)`", Pattern.MULTILINE).matcher(relaySection);
        while (row.find()) {
            names.add(row.group(1));
        }
        return names;
    }
}
