package io.wakurelay.node;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet of store nodes on one PostgreSQL database: A and B relay with each other and both archive what they relay,
 * C relays with nobody. Every message is stored once (one node's insert, the other's a duplicate), each node's
 * metrics say what it wrote, and C's Store answers with the history A and B wrote. A node on PostgreSQL serves the
 * archive metrics docs/metrics.md documents for it, and none of RocksDB's.
 */
@Tag("process")
class PostgresFleetNodeTest {
    private static final String TOPIC = "/waku/2/rs/0/0";

    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @TempDir
    Path dir;

    private static ArchiveConfig archive(String database) {
        return PostgresConfig.builder().host(PostgresServer.HOST).port(postgres.port()).database(database)
                .user(PostgresServer.USER).password(PostgresServer.PASSWORD).maxConnections(6).build()
                .withCore(c -> c.retention(new RetentionPolicy.None()));
    }

    @Test
    void twoNodesArchiveEachMessageOnceAndAThirdServesTheirHistory() throws Exception {
        String database = postgres.freshDatabase();
        try (WakuNode a = WakuNode.start(TestNodes.local(dir.resolve("a")).metrics(TestNodes.metrics()).archive(archive(database)).build());
             WakuNode b = WakuNode.start(TestNodes.local(dir.resolve("b")).metrics(TestNodes.metrics()).archive(archive(database))
                     .host(TestNodes.hostWithStaticPeer(a.multiaddr())).build());
             WakuNode c = WakuNode.start(TestNodes.local(dir.resolve("c")).archive(archive(database)).build())) {
            Http metricsA = new Http(a.metricsAddress());
            Http metricsB = new Http(b.metricsAddress());
            Eventually.until("A and B relay with each other", Duration.ofSeconds(20),
                    () -> Http.metric(metricsA.get("/metrics").body(), "libp2p_pubsub_peers") == 1);
            Http restB = new Http(b.restAddress());
            for (int i = 0; i < 30; i++) {
                String body = "{\"payload\":\"" + Base64.getEncoder().encodeToString(("fleet " + i).getBytes())
                        + "\",\"contentTopic\":\"/app/1/fleet/proto\",\"timestamp\":" + WakuNode.nowNanos() + "}";
                assertThat(restB.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status()).isEqualTo(200);
            }
            Eventually.until("both nodes archived or skipped every message", Duration.ofSeconds(30), () -> {
                String ma = metricsA.get("/metrics").body();
                String mb = metricsB.get("/metrics").body();
                return Http.metric(ma, "waku_archive_inserts_total") + Http.metric(mb, "waku_archive_inserts_total") == 30
                        && Http.metric(ma, "waku_archive_duplicates_total") + Http.metric(mb, "waku_archive_duplicates_total") == 30;
            });
            assertThat(postgres.psql(database, "SELECT count(*), count(DISTINCT messageHash) FROM messages").trim()).isEqualTo("30|30");

            Http.Reply history = new Http(c.restAddress()).get("/store/v3/messages?pubsubTopic=" + Http.topic(TOPIC)
                    + "&contentTopics=" + Http.topic("/app/1/fleet/proto") + "&pageSize=100&includeData=true");
            assertThat(history.status()).isEqualTo(200);
            assertThat(history.json().get("messages")).hasSize(30);
            assertThat(new Http(c.restAddress()).get("/health").status()).isEqualTo(200);

            String exposition = metricsA.get("/metrics").body();
            assertThat(MetricNamesTest.served(exposition)).as("served by a node on PostgreSQL, as docs/metrics.md documents")
                    .isEqualTo(MetricNamesTest.documented(MetricNamesTest.ROCKSDB_SECTION,
                            MetricNamesTest.VALIDATION_SECTION, MetricNamesTest.RLN_ROOTS_SECTION,
                            MetricNamesTest.RLN_VALIDATION_SECTION));
            assertThat(Http.metric(exposition, "waku_postgres_up")).isEqualTo(1);
        }
    }
}
