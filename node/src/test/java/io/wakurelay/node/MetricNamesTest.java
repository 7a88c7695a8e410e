package io.wakurelay.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics contract: every metric a running node serves on /metrics is documented in docs/metrics.md, and every
 * metric documented there is served, under the name Prometheus shows (JVM and process metrics aside, documented as
 * one row).
 */
class MetricNamesTest {
    private static final Path METRICS_DOC = Path.of("..", "docs", "metrics.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)`", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile("^# TYPE ([a-z0-9_]+) ", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void everyServedMetricIsDocumentedAndEveryDocumentedMetricIsServed() throws Exception {
        String[] common = {"--listen-address", "127.0.0.1", "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0"};
        try (WakuNode a = WakuNode.start(NodeMain.parse(concat(common, "--data-dir", dir.resolve("a").toString()), Map.of()));
             WakuNode b = WakuNode.start(NodeMain.parse(concat(common, "--data-dir", dir.resolve("b").toString(),
                     "--staticnode", a.multiaddr().toString()), Map.of()))) {
            Http metrics = new Http(a.metricsAddress());
            Eventually.until(Duration.ofSeconds(20), "the nodes relay with each other",
                    () -> Http.metric(metrics.get("/metrics").body(), "libp2p_pubsub_peers") == 1);
            Http restB = new Http(b.restAddress());
            String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString("m".getBytes()) + "\",\"contentTopic\":\"/app/1/metrics/proto\"}";
            assertThat(restB.post("/relay/v1/messages/" + Http.topic("/waku/2/rs/0/0"), body).status()).isEqualTo(200);
            Eventually.until(Duration.ofSeconds(20), "A archived it",
                    () -> Http.metric(metrics.get("/metrics").body(), "waku_archive_inserts_total") == 1);
            new Http(a.restAddress()).get("/store/v3/messages?pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0");

            Set<String> served = new TreeSet<>();
            Matcher type = TYPE.matcher(metrics.get("/metrics").body());
            while (type.find()) {
                String name = type.group(1);
                if (!name.startsWith("jvm_") && !name.startsWith("process_") && !name.startsWith("system_")) {
                    served.add(name.endsWith("_max") && !name.equals("waku_netty_direct_memory_max_bytes")
                            ? name.substring(0, name.length() - "_max".length()) : name);
                }
            }
            Set<String> documented = new TreeSet<>();
            Matcher row = ROW.matcher(Files.readString(METRICS_DOC));
            while (row.find()) {
                documented.add(row.group(1));
            }
            assertThat(served).as("served, as documented in docs/metrics.md").isEqualTo(documented);
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
