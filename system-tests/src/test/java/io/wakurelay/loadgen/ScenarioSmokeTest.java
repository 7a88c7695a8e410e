package io.wakurelay.loadgen;

import java.util.List;
import java.net.InetSocketAddress;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.WakuNode;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short run of every scenario: each prints the CSV header and one well-formed row, loses nothing, and
 * decodes and hashes each message once on the receiver. Not a performance test: no timing is asserted.
 */
@Tag("process") // macro --processes starts a node process
@Tag("slow")
class ScenarioSmokeTest {
    @TempDir
    Path dir;

    private String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadgenMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as("exit code; stderr: %s", err.toString(StandardCharsets.UTF_8)).isZero();
        String[] lines = out.toString(StandardCharsets.UTF_8).trim().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).isEqualTo(ResultRow.CSV_HEADER);
        String[] row = lines[1].split(",");
        assertThat(row).hasSize(14);
        assertThat(row[13]).as("missing, the last column").isEqualTo("0");
        return row;
    }

    /** A node on 127.0.0.1 with REST on and no metrics server, every port chosen by the system. */
    private NodeConfigBuilder local(String name) {
        return NodeConfig.DEFAULTS.inDataDir(dir.resolve(name)).host(localHost().build())
                .rest(RestConfig.builder().port(0).build()).metrics(null);
    }

    private static HostConfigBuilder localHost() {
        return NodeConfig.DEFAULTS.host().toBuilder().listenAddress(new InetSocketAddress("127.0.0.1", 0));
    }

    @Test
    void microArchivesEveryMessageDecodingAndHashingEachOnce() throws Exception {
        Path json = dir.resolve("micro.json");
        Path html = dir.resolve("micro.html");
        String[] row = run("micro", "--count", "60", "--warmup", "10", "--work-dir", dir.resolve("w").toString(), "--json", json.toString(),
                "--html", html.toString());
        assertThat(row[0]).isEqualTo("micro");
        assertThat(row[1]).isEqualTo("60");
        assertThat(Double.parseDouble(row[3])).isPositive();
        assertThat(row[6]).isEqualTo("1.000");
        assertThat(row[7]).isEqualTo("1.000");
        assertThat(row[8]).isEqualTo("0.000");
        assertThat(Files.readString(json)).contains("\"scenario\" : \"micro\"", "\"missing\" : 0");
        assertThat(Files.readString(dir.resolve("micro.hgrm"))).contains("Total count    =           60]");
        assertThat(Files.readString(html)).contains("<svg", "latency histogram (60 messages)");
    }

    @Test
    void macroArchivesEveryMessageOnTheReceiver() {
        String[] row = run("macro", "--count", "60", "--warmup", "10", "--work-dir", dir.resolve("w").toString());
        assertThat(row[0]).isEqualTo("macro");
        assertThat(row[6]).isEqualTo("1.000");
        assertThat(row[7]).isEqualTo("1.000");
        assertThat(row[8]).isEqualTo("0.000");
    }

    @Test
    void macroOverWebSocketArchivesEveryMessageOnTheReceiver() throws Exception {
        Path json = dir.resolve("macro-ws.json");
        String[] row = run("macro", "--transport", "ws", "--count", "40", "--warmup", "5", "--work-dir",
                dir.resolve("ws").toString(), "--json", json.toString());
        assertThat(row[0]).isEqualTo("macro");
        assertThat(row[6]).isEqualTo("1.000");
        assertThat(Files.readString(json)).contains("\"transport\" : \"ws\"", "\"missing\" : 0");
    }

    @Test
    void macroWithTheReceiverInItsOwnProcessArchivesEveryMessage() throws Exception {
        Path json = dir.resolve("macro.json");
        String[] row = run("macro", "--processes", "--store-poll", "5", "--count", "40", "--warmup", "5", "--work-dir",
                dir.resolve("p").toString(), "--json", json.toString());
        assertThat(row[0]).isEqualTo("macro");
        assertThat(row[1]).isEqualTo("40");
        assertThat(row[6]).isEqualTo("1.000");
        assertThat(row[7]).isEqualTo("1.000");
        assertThat(row[8]).isEqualTo("0.000");
        assertThat(row[11]).as("allocation is not measurable in another process").isEqualTo("NaN");
        assertThat(Files.readString(json)).contains("\"mode\" : \"processes\"", "\"missing\" : 0", "\"alloc_bytes_per_msg\" : null",
                "\"latency_resolution_ms\" : 5");
    }

    @Test
    void aStorePollOutsideItsRangeIsRefusedNamingTheRange() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoadgenMain.run(new String[]{"macro", "--processes", "--store-poll", "0"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--store-poll must be 1 - 1000 ms, was 0");
    }

    @Test
    void fanoutDeliversEveryMessageToEveryMeshPeer() throws Exception {
        Path json = dir.resolve("fanout.json");
        // 7 peers: more than the default --ip-colocation-limit (5) and gossipsub's default D (6), all from 127.0.0.1
        String[] row = run("fanout", "-d", "7", "--count", "40", "--warmup", "5", "--work-dir", dir.resolve("f").toString(),
                "--json", json.toString());
        assertThat(row[0]).isEqualTo("fanout");
        assertThat(row[1]).isEqualTo("40");
        assertThat(row[6]).as("the relay decodes each message once").isEqualTo("1.000");
        assertThat(row[7]).isEqualTo("1.000");
        assertThat(row[8]).isEqualTo("0.000");
        String report = Files.readString(json);
        assertThat(report).contains("\"missing\" : 0", "\"mesh_peers\" : 7", "\"delivered_copies\" : 280");
        // the relay wrote at least the payload once per copy
        long perCopy = Long.parseLong(report.replaceAll("(?s).*\"relay_bytes_out_per_copy\" : (\\d+).*", "$1"));
        long payload = Long.parseLong(report.replaceAll("(?s).*\"payload_bytes_per_msg\" : (\\d+).*", "$1"));
        assertThat(perCopy).isGreaterThan(payload);
    }

    @Test
    void meshDeliversEveryMessageToEveryNode() throws Exception {
        Path json = dir.resolve("mesh.json");
        String[] row = run("mesh", "--nodes", "8", "--links", "3", "--rate", "40", "--count", "30", "--warmup", "5",
                "--work-dir", dir.resolve("m").toString(), "--json", json.toString());
        assertThat(row[0]).isEqualTo("mesh");
        assertThat(row[1]).isEqualTo("30");
        String report = Files.readString(json);
        assertThat(report).contains("\"missing\" : 0", "\"nodes\" : 8", "\"delivery_ratio\" : 1.0");
        // a node gets each message at least once: it writes at least the payload on for the others, on average
        long perNodeMessage = Long.parseLong(report.replaceAll("(?s).*\"bytes_out_per_node_msg\" : (\\d+).*", "$1"));
        assertThat(perNodeMessage).isGreaterThan(10_000);
    }

    /** The store node of drive: it serves /metrics, which the row's node columns come from. */
    private NodeConfigBuilder storeNode(String name, WakuNode peer) {
        return local(name).host(localHost().staticPeers(List.of(peer.multiaddr())).build()).metrics(MetricsConfig.builder().port(0).build());
    }

    /** The store node's figures, from its /metrics: it decoded and hashed each message once and copied none. */
    private static void assertStoreNodeColumns(String[] row) {
        assertThat(String.join(",", row)).doesNotContain("NaN");
        assertThat(row[6]).isEqualTo("1.000");
        assertThat(row[7]).isEqualTo("1.000");
        assertThat(row[8]).isEqualTo("0.000");
        assertThat(Double.parseDouble(row[9])).as("the store node's peak heap").isPositive();
        assertThat(Double.parseDouble(row[10])).as("its peak RSS").isPositive();
        assertThat(Double.parseDouble(row[11])).as("its heap allocated per message").isPositive();
    }

    @Test
    void driveFindsEveryPublishedMessageInTheOtherNodesStore() throws Exception {
        try (WakuNode a = WakuNode.start(local("a").rest(null).archive(null).build());
             WakuNode b = WakuNode.start(storeNode("b", a).build())) {
            Path json = dir.resolve("drive.json");
            // the metrics address without its host: the --store-at host's
            String[] row = run("drive", "--count", "40", "--warmup", "5", "--publish-to", a.multiaddr().toString(),
                    "--store-at", "127.0.0.1:" + b.restAddress().getPort(), "--metrics-at", ":" + b.metricsAddress().getPort(),
                    "--work-dir", dir.resolve("w").toString(), "--settle", "20s", "--json", json.toString());
            assertThat(row[0]).isEqualTo("drive");
            assertThat(row[1]).isEqualTo("40");
            assertStoreNodeColumns(row);
            assertThat(Files.readString(json)).contains("\"metrics_at\" : \"127.0.0.1:" + b.metricsAddress().getPort() + "\"",
                    "\"store_metrics_absent\" : [ ]", "\"loadgen_peak_heap_mb\"", "\"store_cpu_us_per_msg\"");
        }
    }

    @Test
    void driveThroughOneNodesRestApiFindsEveryMessageInTheOtherNodesStore() throws Exception {
        try (WakuNode a = WakuNode.start(local("a").archive(null).build());
             WakuNode b = WakuNode.start(storeNode("b", a).build())) {
            // A publishes to its mesh only once B is in it
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
            while (a.relay().mesh().getOrDefault("/waku/2/rs/0/0", java.util.List.of()).isEmpty() && System.nanoTime() < deadline) {
                InProcessNodes.sleep(20);
            }
            Path json = dir.resolve("drive-rest.json");
            String[] row = run("drive", "--count", "30", "--warmup", "3", "--publish-rest", "127.0.0.1:" + a.restAddress().getPort(),
                    "--store-at", "127.0.0.1:" + b.restAddress().getPort(), "--metrics-at", "127.0.0.1:" + b.metricsAddress().getPort(),
                    "--work-dir", dir.resolve("w").toString(), "--settle", "20s", "--json", json.toString());
            assertThat(row[0]).isEqualTo("drive");
            assertThat(row[1]).isEqualTo("30");
            assertStoreNodeColumns(row);
            assertThat(Files.readString(json)).contains("\"missing\" : 0", "\"publish_to\" : \"rest:127.0.0.1:");
        }
    }

    @Test
    void driveTakesExactlyOneWayToPublish() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = LoadgenMain.run(new String[]{"drive", "--count", "1", "--publish-to", "/ip4/127.0.0.1/tcp/1/p2p/16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b",
                        "--publish-rest", "127.0.0.1:1", "--store-at", "127.0.0.1:8646", "--work-dir", dir.resolve("w").toString()},
                new PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("mutually exclusive");
    }

    @Test
    void driveRefusesAnAddressWithoutAPeerIdAsAUsageError() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = LoadgenMain.run(new String[]{"drive", "--count", "1", "--publish-to", "/ip4/127.0.0.1/tcp/60000",
                "--store-at", "127.0.0.1:8646", "--work-dir", dir.resolve("w").toString()},
                new PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("/p2p/<peer id>");
    }

    @Test
    void latMeasuresRoundTrips() {
        String[] row = run("lat", "1", "50", "--warmup", "10", "--work-dir", dir.resolve("w").toString());
        assertThat(row[0]).isEqualTo("lat");
        assertThat(Long.parseLong(row[4])).isPositive();
        assertThat(Long.parseLong(row[5])).isGreaterThanOrEqualTo(Long.parseLong(row[4]));
    }

    @Test
    void thrMeasuresThroughput() {
        String[] row = run("thr", "1000", "200", "--warmup", "20", "--work-dir", dir.resolve("w").toString());
        assertThat(row[0]).isEqualTo("thr");
        assertThat(Double.parseDouble(row[3])).isPositive();
        assertThat(row[6]).isEqualTo("1.000");
    }

    @Test
    void queryReadsWholePagesWithDataAndMeasuresTheNodesAllocation() throws Exception {
        try (WakuNode node = WakuNode.start(local("q").metrics(MetricsConfig.builder().port(0).build()).build())) {
            Path json = dir.resolve("query.json");
            String[] row = run("query", "--rest-at", "127.0.0.1:" + node.restAddress().getPort(), "--metrics-at",
                    "127.0.0.1:" + node.metricsAddress().getPort(), "--fill", "30", "--payload-bytes", "10000", "--page-size", "20",
                    "--count", "30", "--concurrency", "2", "--json", json.toString());
            assertThat(row[0]).isEqualTo("query");
            assertThat(row[1]).isEqualTo("30");
            assertThat(Long.parseLong(row[5])).isGreaterThanOrEqualTo(Long.parseLong(row[4])).isPositive();
            assertThat(Double.parseDouble(row[11])).as("heap allocated per query, net of the node's idle allocation").isPositive();
            // 30 messages by pages of 20: the clients alternate pages of 20 and 10
            assertThat(Files.readString(json)).contains("\"failed\" : 0", "\"refused_busy\" : 0", "\"page_size\" : 20");
        }
    }
}
