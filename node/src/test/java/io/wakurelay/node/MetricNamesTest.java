package io.wakurelay.node;

import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics contract: every metric a running node serves on /metrics is documented in docs/metrics.md, and every
 * metric documented there is served, under the name Prometheus shows (JVM and process metrics aside, documented as
 * one row). The sections of one backend's own archive metrics are served only by a node on that backend
 * ({@code PostgresFleetNodeTest} checks the PostgreSQL node's).
 */
class MetricNamesTest {
    private static final Path METRICS_DOC = Path.of("..", "docs", "metrics.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)`", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile("^# TYPE ([a-z0-9_]+) ", Pattern.MULTILINE);

    static final String POSTGRES_SECTION = "## Archive on PostgreSQL";
    static final String ROCKSDB_SECTION = "## Archive on RocksDB";
    /** Served only by a relay with a validator (relay's {@code ValidationMetricsDocTest} checks it), none here. */
    static final String VALIDATION_SECTION = "## Relay validation";
    /** Served only by a node that validates RLN proofs ({@code RlnNodeTest} checks them), none here. */
    static final String RLN_ROOTS_SECTION = "## RLN: membership roots";
    static final String RLN_VALIDATION_SECTION = "## RLN: validation";

    @TempDir
    Path dir;

    @Test
    void everyServedMetricIsDocumentedAndEveryDocumentedMetricIsServed() throws Exception {
        try (TwoNodes nodes = TwoNodes.withOneMessageRelayed(dir)) {
            Set<String> served = served(nodes.scrapeA());
            Set<String> documented = documented(POSTGRES_SECTION, VALIDATION_SECTION, RLN_ROOTS_SECTION,
                    RLN_VALIDATION_SECTION);
            assertThat(served).as("served, as documented in docs/metrics.md").isEqualTo(documented);
        }
    }

    /**
     * The names docs/metrics.md documents, less those of the sections {@code notServed} (the other backend's, or
     * what only a relay with a validator serves).
     */
    static Set<String> documented(String... notServed) throws java.io.IOException {
        String without = Files.readString(METRICS_DOC);
        for (String section : notServed) {
            int from = without.indexOf(section);
            int to = without.indexOf("\n## ", from + 1);
            without = without.substring(0, from) + without.substring(to);
        }
        Set<String> documented = new TreeSet<>();
        Matcher row = ROW.matcher(without);
        while (row.find()) {
            documented.add(row.group(1));
        }
        return documented;
    }

    /** The metrics served from /metrics, less the JVM's and the process's (documented as one row). */
    static Set<String> served(String exposition) {
        Set<String> served = new TreeSet<>();
        Matcher type = TYPE.matcher(exposition);
        while (type.find()) {
            String name = type.group(1);
            if (!name.startsWith("jvm_") && !name.startsWith("process_") && !name.startsWith("system_")) {
                served.add(name.endsWith("_max") && !name.equals("waku_netty_direct_memory_max_bytes")
                        ? name.substring(0, name.length() - "_max".length()) : name);
            }
        }
        return served;
    }

    @Test
    void nwakusDashboardNamesCountTheRelayedMessageItsSizeTheStoredMessageAndThePeer() throws Exception {
        try (TwoNodes nodes = TwoNodes.withOneMessageRelayed(dir)) {
            String a = nodes.scrapeA();
            assertThat(Http.metric(a, "waku_node_messages_total{type=\"relay\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_histogram_message_size_count")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_histogram_message_size_bucket{le=\"1.0\"}")).as("a 1-byte payload is 0.001 kB").isEqualTo(1);
            assertThat(Http.metric(a, "waku_archive_messages{type=\"stored\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_archive_insert_duration_seconds_count")).isPositive();
            assertThat(Http.metric(a, "waku_archive_errors_total{type=\"insert_failure\"}")).isZero();
            assertThat(Http.metric(a, "libp2p_peers")).isEqualTo(1);
            // B dialled A: on A the peer is inbound, and it offers relay and store (identify)
            assertThat(Http.metric(a, "waku_connected_peers{direction=\"In\",protocol=\"/vac/waku/relay/2.0.0\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_connected_peers{direction=\"In\",protocol=\"/vac/waku/store-query/3.0.0\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_connected_peers{direction=\"Out\",protocol=\"/vac/waku/relay/2.0.0\"}")).isZero();
            // the per-shard panels: B's message on shard 0 of cluster 0, A's only topic
            assertThat(Http.metric(a, "waku_connected_peers_per_shard{shard=\"0\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_relay_total_msg_bytes_per_shard{shard=\"/waku/2/rs/0/0\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_relay_max_msg_bytes_per_shard{shard=\"/waku/2/rs/0/0\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_relay_avg_msg_bytes_per_shard{shard=\"/waku/2/rs/0/0\"}")).isEqualTo(1);
            assertThat(Http.metric(a, "waku_relay_network_bytes_total{direction=\"in\",topic=\"/waku/2/rs/0/0\",type=\"net\"}"))
                    .isPositive();
            assertThat(Http.metric(a, "waku_archive_messages_per_shard{shard=\"0\"}")).isEqualTo(1);
            // the process panels, under the names Prometheus' own clients (nim-metrics among them) give them
            assertThat(Http.metric(a, "process_resident_memory_bytes")).isPositive();
            assertThat(Http.metric(a, "process_virtual_memory_bytes")).isGreaterThan(
                    Http.metric(a, "process_resident_memory_bytes"));
            assertThat(Http.metric(a, "process_open_fds")).isPositive();
            // the discovery panels: discv5 is off, so zero, but there for the node's own shard
            assertThat(Http.metric(a, "routing_table_nodes")).isZero();
            assertThat(Http.metric(a, "routing_table_nodes{state=\"seen\"}")).isZero();
            assertThat(Http.metric(a, "waku_discv5_discovered_per_shard{shard=\"0\"}")).isZero();
            // nim-libp2p's topic counters: A joined its one topic at start
            assertThat(Http.metric(a, "libp2p_pubsub_subscriptions_total")).isEqualTo(1);
            assertThat(Http.metric(a, "libp2p_pubsub_unsubscriptions_total")).isZero();
            // nim-libp2p's dial counters: B dialled A once
            String b = new Http(nodes.b().metricsAddress()).get("/metrics").body();
            assertThat(Http.metric(b, "libp2p_total_dial_attempts_total")).isEqualTo(1);
            assertThat(Http.metric(b, "libp2p_successful_dials_total")).isEqualTo(1);
            assertThat(Http.metric(b, "libp2p_failed_dials_total")).isZero();
        }
    }

    @Test
    void everyHistogramHasAtMostFifteenBuckets() throws Exception {
        try (TwoNodes nodes = TwoNodes.withOneMessageRelayed(dir)) {
            Map<String, Integer> buckets = new TreeMap<>();
            for (String line : nodes.scrapeA().split("\n")) {
                int brace = line.indexOf("_bucket{");
                if (!line.startsWith("#") && brace > 0) {
                    // one histogram is one name and one label set without le
                    String series = line.substring(0, line.indexOf(' ')).replaceAll("le=\"[^\"]*\",?", "");
                    buckets.merge(series, 1, Integer::sum);
                }
            }
            assertThat(buckets).isNotEmpty();
            assertThat(buckets).allSatisfy((series, n) -> assertThat(n).as(series).isLessThanOrEqualTo(15));
        }
    }

    /** Node A, and node B that dials it and publishes one message of a 1-byte payload that A archives. */
    private record TwoNodes(WakuNode a, WakuNode b) implements AutoCloseable {
        static TwoNodes withOneMessageRelayed(Path dir) {
            WakuNode a = WakuNode.start(TestNodes.local(dir.resolve("a")).metrics(TestNodes.metrics()).build());
            WakuNode b = null;
            try {
                b = WakuNode.start(TestNodes.local(dir.resolve("b")).metrics(TestNodes.metrics())
                        .host(TestNodes.hostWithStaticPeer(a.multiaddr())).build());
                TwoNodes nodes = new TwoNodes(a, b);
                Eventually.until("the nodes relay with each other", Duration.ofSeconds(20),
                        () -> Http.metric(nodes.scrapeA(), "libp2p_pubsub_peers") == 1);
                String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString("m".getBytes())
                        + "\",\"contentTopic\":\"/app/1/metrics/proto\"}";
                assertThat(new Http(b.restAddress()).post("/relay/v1/messages/" + Http.topic("/waku/2/rs/0/0"), body).status())
                        .isEqualTo(200);
                Eventually.until("A archived it", Duration.ofSeconds(20),
                        () -> Http.metric(nodes.scrapeA(), "waku_archive_inserts_total") == 1);
                new Http(a.restAddress()).get("/store/v3/messages?pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0");
                return nodes;
            } catch (RuntimeException | Error e) {
                if (b != null) {
                    b.close();
                }
                a.close();
                throw e;
            }
        }

        String scrapeA() {
            return new Http(a.metricsAddress()).get("/metrics").body();
        }

        @Override
        public void close() {
            try (WakuNode first = a) {
                b.close();
            }
        }
    }
}
