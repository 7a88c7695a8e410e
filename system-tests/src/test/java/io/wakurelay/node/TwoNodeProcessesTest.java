package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two real node processes on loopback: publish over REST on A, receive on B's event stream, find it in both
 * stores under the hash A computed, see the counters move on both /metrics; then stop B with SIGTERM and
 * restart it on the same data directory, which still serves every message.
 */
@Tag("process")
@Tag("slow")
class TwoNodeProcessesTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/e2e/proto";
    private static final List<String> JVM = List.of("-Xmx256m", "-Dio.netty.leakDetection.level=paranoid");

    @TempDir
    Path dir;

    private static List<String> args(Path data, String... extra) {
        List<String> args = new ArrayList<>(List.of("--data-dir", data.toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0"));
        args.addAll(List.of(extra));
        return args;
    }

    @Test
    void aMessagePublishedOnOneNodeIsStreamedAndArchivedOnTheOther() throws Exception {
        Duration startup = Duration.ofSeconds(60);
        try (NodeProcess a = NodeProcess.start(JVM, args(dir.resolve("a")), startup, dir.resolve("a.log"))) {
            String peerA = a.multiaddr().toString();
            Path dataB = dir.resolve("b");
            List<String> hashes = new ArrayList<>();
            try (NodeProcess b = NodeProcess.start(JVM, args(dataB, "--staticnode", peerA), startup, dir.resolve("b.log"))) {
                Http restA = new Http(a.restAddress());
                Http restB = new Http(b.restAddress());
                Eventually.until("A knows B relays the topic", Duration.ofSeconds(30),
                        () -> Http.metric(new Http(a.metricsAddress()).get("/metrics").body(),
                                "libp2p_gossipsub_peers_per_topic_gossipsub{topic=\"" + TOPIC + "\"}") == 1);
                BlockingQueue<JsonNode> streamB = restB.stream("/relay/v1/stream/" + Http.topic(TOPIC));

                for (int i = 0; i < 5; i++) {
                    long timestamp = WakuNode.nowNanos();
                    byte[] payload = ("message " + i).getBytes();
                    String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString(payload) + "\",\"contentTopic\":\"" + CONTENT
                            + "\",\"timestamp\":" + timestamp + "}";
                    assertThat(restA.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status()).isEqualTo(200);
                    String expected = new MessageHasher(new PathCounters()).hash(TOPIC, WakuMessage.newBuilder()
                            .setPayload(ByteString.copyFrom(payload)).setContentTopic(CONTENT).setTimestamp(timestamp).build()).toHex();
                    hashes.add(expected);
                    JsonNode event = streamB.poll(20, TimeUnit.SECONDS);
                    assertThat(event).as("B streams message %d", i).isNotNull();
                    assertThat(event.get("messageHash").asText()).isEqualTo(expected);
                }

                String byHash = "/store/v3/messages?hashes=" + String.join(",", hashes);
                Eventually.until("both stores hold all five", Duration.ofSeconds(20),
                        () -> restA.get(byHash).json().get("messages").size() == 5 && restB.get(byHash).json().get("messages").size() == 5);
                List<String> storedOnB = new ArrayList<>();
                restB.get(byHash).json().get("messages").forEach(m -> storedOnB.add(m.get("messageHash").asText()));
                assertThat(storedOnB).containsExactlyInAnyOrderElementsOf(hashes);

                String metricsA = new Http(a.metricsAddress()).get("/metrics").body();
                String metricsB = new Http(b.metricsAddress()).get("/metrics").body();
                assertThat(Http.metric(metricsA, "waku_encodes_total")).isEqualTo(5);
                assertThat(Http.metric(metricsA, "waku_relay_messages_relayed_total")).isGreaterThanOrEqualTo(5);
                assertThat(Http.metric(metricsB, "waku_decodes_total")).isEqualTo(5);
                assertThat(Http.metric(metricsB, "waku_hashes_total")).isEqualTo(5);
                assertThat(Http.metric(metricsB, "waku_payload_copies_total")).isZero();
                assertThat(Http.metric(metricsB, "waku_archive_inserts_total")).isEqualTo(5);

                assertThat(b.stop(Duration.ofSeconds(30))).as("graceful exit on SIGTERM").isIn(0, 143);
                assertThat(String.join("\n", b.output())).contains("node stopped");
            }
            try (NodeProcess b2 = NodeProcess.start(JVM, args(dataB), startup, dir.resolve("b2.log"))) {
                JsonNode after = new Http(b2.restAddress()).get("/store/v3/messages?hashes=" + String.join(",", hashes)).json();
                assertThat(after.get("messages").size()).as("restart serves every stored message").isEqualTo(5);
            }
        }
    }
}
