package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.hashes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two nodes archiving into one database, as a fleet of store nodes does: a message relayed to both is stored once,
 * each node's Store sees what the other wrote, and retention runs on one node at a time.
 */
@Tag("process")
class FleetTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    /** Envelopes {@code from..from+count}, each a fresh copy (every node receives its own buffers). */
    private static List<Envelope> messages(int from, int count) {
        return TestEnvelopes.sequence(from, count, 300);
    }

    @Test
    void aMessageRelayedToBothNodesIsStoredOnceAndEachNodeServesEverything() {
        PostgresConfig config = PostgresFixture.config(postgres);
        try (PostgresArchive a = PostgresArchive.open(config, new SimpleMeterRegistry());
             PostgresArchive b = PostgresArchive.open(config, new SimpleMeterRegistry())) {
            // both write at once; 0..599 to a, 300..899 to b: 300 messages reach both
            var writingA = a.write(Flux.fromIterable(messages(0, 600))).subscribeOn(Schedulers.boundedElastic()).collectList().toFuture();
            var writingB = b.write(Flux.fromIterable(messages(300, 600))).subscribeOn(Schedulers.boundedElastic()).collectList().toFuture();
            List<CommittedBatch> batches = new ArrayList<>(writingA.join());
            batches.addAll(writingB.join());

            Set<MessageHash> stored = new HashSet<>();
            int storedCount = 0;
            int duplicates = 0;
            for (CommittedBatch batch : batches) {
                stored.addAll(batch.stored());
                storedCount += batch.stored().size();
                duplicates += batch.duplicates();
            }
            assertThat(storedCount).isEqualTo(900);
            assertThat(stored).hasSize(900);
            assertThat(duplicates).isEqualTo(300);
            assertThat(postgres.psql(config.database(), "SELECT count(*), count(DISTINCT messageHash) FROM messages").trim())
                    .isEqualTo("900|900");
            assertThat(postgres.psql(config.database(), "SELECT count(*) FROM messages_lookup").trim()).isEqualTo("900");
            for (PostgresArchive node : List.of(a, b)) {
                assertThat(hashes(allPages(node, StoreQuery.builder().pageSize(100).build()))).containsExactlyInAnyOrderElementsOf(stored);
            }
        }
    }

    @Test
    void retentionRunsOnOneNodeOfTheFleetAtATime() throws Exception {
        PostgresConfig config = PostgresFixture.config(postgres).withCore(c -> c.retention(new RetentionPolicy.Capacity(10)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (PostgresArchive node = PostgresArchive.open(config, registry);
             Connection otherNode = PostgresFixtureSql.connect(postgres, config.database());
             Statement statement = otherNode.createStatement()) {
            io.wakurelay.archive.ArchiveFixture.writeAll(node, messages(0, 50));
            // another node's pass holds the retention lock
            statement.execute("SELECT pg_advisory_lock(" + PostgresRetention.RETENTION_LOCK + ")");
            assertThat(node.applyRetention().deletedMessages()).isZero();
            assertThat(registry.get("waku.postgres.retention.skipped").counter().count()).isEqualTo(1);
            assertThat(PostgresFixture.count(node)).isEqualTo(50);
            statement.execute("SELECT pg_advisory_unlock(" + PostgresRetention.RETENTION_LOCK + ")");
            assertThat(node.applyRetention().deletedMessages()).isEqualTo(40);
            assertThat(PostgresFixture.count(node)).isEqualTo(10);
        }
    }

    @Test
    void aMessageWithoutATimestampIsNotStoredAndIsCountedAsNwakuCountsIt() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (PostgresArchive archive = PostgresArchive.open(PostgresFixture.config(postgres), registry)) {
            List<Envelope> envelopes = new ArrayList<>(messages(0, 3));
            envelopes.add(TestEnvelopes.withoutTimestamp(7));
            List<CommittedBatch> batches = io.wakurelay.archive.ArchiveFixture.writeAll(archive, envelopes);
            assertThat(batches.stream().mapToInt(CommittedBatch::withoutTimestamp).sum()).isEqualTo(1);
            assertThat(batches.stream().mapToInt(CommittedBatch::envelopes).sum()).isEqualTo(4);
            assertThat(PostgresFixture.count(archive)).isEqualTo(3);
            assertThat(registry.get("waku.archive.errors").tag("type", "invalid_message_too_old").counter().count()).isEqualTo(1);
        }
    }

    @Test
    void twoNodesNeedingTheSamePartitionMakeItOnce() throws Exception {
        PostgresConfig config = PostgresFixture.config(postgres);
        try (PostgresArchive a = PostgresArchive.open(config, new SimpleMeterRegistry());
             PostgresArchive b = PostgresArchive.open(config, new SimpleMeterRegistry())) {
            // timestamps of 2023 and of three different hours: no partition holds them yet
            long hour = 3_600_000_000_000L;
            List<Envelope> forA = new ArrayList<>();
            List<Envelope> forB = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                long ts = TestEnvelopes.BASE_TIME + (i % 3) * hour + i;
                forA.add(TestEnvelopes.envelope(i, 20, ts));
                forB.add(TestEnvelopes.envelope(i, 20, ts));
            }
            var writingA = a.write(Flux.fromIterable(forA)).subscribeOn(Schedulers.boundedElastic()).then().toFuture();
            var writingB = b.write(Flux.fromIterable(forB)).subscribeOn(Schedulers.boundedElastic()).then().toFuture();
            writingA.get();
            writingB.get();
            assertThat(PostgresFixture.count(a)).isEqualTo(60);
            // now and the next hour, and the three hours of the messages (a sixth if the clock passed an hour meanwhile)
            int partitions = Integer.parseInt(postgres.psql(config.database(),
                    "SELECT count(*) FROM pg_inherits WHERE inhparent = 'messages'::regclass").trim());
            assertThat(partitions).isBetween(5, 6);
        }
    }
}
