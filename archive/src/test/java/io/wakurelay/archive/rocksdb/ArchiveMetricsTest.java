package io.wakurelay.archive.rocksdb;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The archive's meters, scraped as Prometheus shows them, against the contract in docs/metrics.md. */
class ArchiveMetricsTest {
    private static final Path METRICS_DOC = Path.of("..", "docs", "metrics.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z_]+)` \\| ([^|]+) \\|");

    @TempDir
    Path dir;

    private record Documented(String name, String type) {
        /** The sample line Prometheus writes for it: timers and summaries by their count. */
        String sample() {
            return type.startsWith("timer") || type.startsWith("summary") ? name + "_count" : name;
        }
    }

    private static List<Documented> documentedArchiveMetrics() throws Exception {
        List<Documented> rows = new ArrayList<>();
        boolean inArchive = false;
        for (String line : Files.readAllLines(METRICS_DOC)) {
            if (line.startsWith("## ")) {
                // the meters every backend serves, and RocksDB's own
                inArchive = line.equals("## Archive") || line.equals("## Archive on RocksDB");
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (inArchive && row.find()) {
                rows.add(new Documented(row.group(1), row.group(2).trim()));
            }
        }
        return rows;
    }

    @Test
    void everyDocumentedArchiveMetricIsExportedUnderItsName() throws Exception {
        List<Documented> documented = documentedArchiveMetrics();
        assertThat(documented).hasSizeGreaterThanOrEqualTo(18);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RocksConfig config = RocksFixture.config(dir).withCore(c -> c.retention(new RetentionPolicy.Capacity(5)));
        try (RocksArchive archive = RocksArchive.open(config, registry)) {
            List<Envelope> envelopes = new ArrayList<>(TestEnvelopes.sequence(0, 10, 100));
            envelopes.add(TestEnvelopes.envelope(3, 100, TestEnvelopes.BASE_TIME + 3));
            envelopes.add(TestEnvelopes.ephemeral(99));
            ArchiveFixture.writeAll(archive, envelopes);
            archive.query(StoreQuery.builder().build());
            archive.query(StoreQuery.builder().pubsubTopic(TestEnvelopes.PUBSUB).build());
            archive.query(StoreQuery.builder().hashes(envelopes.get(0).hash()).build());
            archive.applyRetention();

            String scrape = registry.scrape();
            for (Documented metric : documented) {
                assertThat(scrape).as("%s (%s) in the scrape", metric.name(), metric.type())
                        .containsPattern("(?m)^" + metric.sample() + "[{ ]");
            }
            assertThat(scrape).contains("waku_archive_inserts_total 10.0");
            assertThat(scrape).contains("waku_archive_duplicates_total 1.0");
            assertThat(scrape).contains("waku_archive_ephemeral_skipped_total 1.0");
            assertThat(scrape).contains("waku_archive_retention_deleted_total{policy=\"capacity\"} 5.0");
            assertThat(scrape).contains("waku_archive_retention_runs_total 1.0");
            assertThat(scrape).contains("waku_archive_messages{type=\"stored\"} 5.0");
            assertThat(scrape).containsPattern("waku_archive_query_duration_seconds_count\\{kind=\"topics\"} 1");
            assertThat(scrape).containsPattern("waku_archive_query_duration_seconds_count\\{kind=\"hashes\"} 1");
            assertThat(scrape).containsPattern("waku_archive_query_duration_seconds_count\\{kind=\"time\"} 1");
            assertThat(scrape).contains("waku_archive_insert_duration_seconds_bucket");
            assertThat(scrape).contains("waku_rocksdb_estimated_keys{cf=\"by_content_topic\"}");
            assertThat(scrape).contains("waku_archive_pending 0.0");
        }
    }

    @Test
    void aStoredMessageCountsUnderItsShardOnlyAndExpectedShardsStartAtZero() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), registry)) {
            archive.expectTopics(List.of("/waku/2/rs/0/0", "/waku/2/rs/0/1"));
            assertThat(registry.scrape()).contains("waku_archive_messages_per_shard{shard=\"0\"} 0.0")
                    .contains("waku_archive_messages_per_shard{shard=\"1\"} 0.0");

            List<Envelope> envelopes = new ArrayList<>(TestEnvelopes.sequence(0, 3, 100));
            envelopes.add(TestEnvelopes.envelope(1, 100, TestEnvelopes.BASE_TIME + 1)); // a duplicate: not stored
            envelopes.add(TestEnvelopes.ephemeral(50)); // not archived
            for (int i = 0; i < 2; i++) {
                envelopes.add(TestEnvelopes.envelope("/waku/2/rs/0/3", TestEnvelopes.CONTENT, 10 + i, 100, TestEnvelopes.BASE_TIME + 10 + i));
            }
            // nwaku counts a message of a named topic under shard 0
            envelopes.add(TestEnvelopes.envelope("/waku/2/default-waku/proto", TestEnvelopes.CONTENT, 20, 100, TestEnvelopes.BASE_TIME + 20));
            ArchiveFixture.writeAll(archive, envelopes);

            String scrape = registry.scrape();
            assertThat(scrape).contains("waku_archive_messages_per_shard{shard=\"0\"} 4.0");
            assertThat(scrape).contains("waku_archive_messages_per_shard{shard=\"1\"} 0.0");
            assertThat(scrape).contains("waku_archive_messages_per_shard{shard=\"3\"} 2.0");
        }
        assertThat(registry.scrape()).as("removed with the archive").doesNotContain("waku_archive_messages_per_shard");
    }
}
