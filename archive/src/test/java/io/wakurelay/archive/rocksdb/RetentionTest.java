package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.hashes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetentionTest {
    private static final long SECOND = 1_000_000_000L;
    private static final List<String> PUBSUB = List.of("/waku/2/rs/0/1", "/waku/2/rs/0/2");
    private static final List<String> CONTENT = List.of("/app/1/a/proto", "/app/1/b/proto", "/app/1/c/proto");

    @TempDir
    Path dir;
    private final MeterRegistry registry = new SimpleMeterRegistry();

    private RocksArchive open(RetentionPolicy policy, long nowNanos) {
        return RocksArchive.open(RocksFixture.config(dir).withCore(c -> c.retention(policy)), registry,
                ArchiveHooks.DEFAULT.withWallClock(() -> nowNanos).withRetentionChunk(CHUNK));
    }

    /** Small chunks, so that a few hundred messages already take several. */
    private static final int CHUNK = 64;

    private static List<Envelope> messages(int count, int payloadSize) {
        return messages(0, count, payloadSize);
    }

    /** Message i has timestamp BASE + i seconds, and spreads over two pubsub and three content topics. */
    private static List<Envelope> messages(int from, int count, int payloadSize) {
        List<Envelope> envelopes = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            envelopes.add(TestEnvelopes.envelope(PUBSUB.get(i % 2), CONTENT.get(i % 3), i, payloadSize + i % 7,
                    TestEnvelopes.BASE_TIME + i * SECOND));
        }
        return envelopes;
    }

    @Test
    void timeDeletesMessagesOlderThanTheAgeFromEveryIndexAndReadsOnlyWhatItDeletes() {
        List<Envelope> envelopes = messages(200, 40);
        List<MessageHash> hashes = envelopes.stream().map(Envelope::hash).toList();
        long[] sizes = envelopes.stream().mapToLong(Envelope::messageSize).toArray();
        try (RocksArchive archive = open(new RetentionPolicy.Time(Duration.ofSeconds(150)), TestEnvelopes.BASE_TIME + 200 * SECOND)) {
            ArchiveFixture.writeAll(archive, envelopes);
            long bytesBefore = archive.storedBytes();

            RetentionRun run = archive.applyRetention();

            // cutoff = BASE + 50 s: messages 0..49 are older, message 50 is exactly at the cutoff and stays
            assertThat(run.deletedMessages()).isEqualTo(50);
            assertThat(run.entriesVisited()).isEqualTo(50);
            long deletedBytes = java.util.Arrays.stream(sizes, 0, 50).sum();
            assertThat(run.deletedBytes()).isEqualTo(deletedBytes);
            assertThat(archive.storedBytes()).isEqualTo(bytesBefore - deletedBytes);
            ArchiveInspector.assertConsistent(archive, 150);
            assertThat(hashes(allPages(archive, StoreQuery.builder().pageSize(100).build()))).containsExactlyElementsOf(hashes.subList(50, 200));
            for (String pubsub : PUBSUB) {
                assertThat(hashes(allPages(archive, StoreQuery.builder().pubsubTopic(pubsub).contentTopics(CONTENT).pageSize(100).build())))
                        .allMatch(h -> hashes.indexOf(h) >= 50).hasSize(75);
            }
            assertThat(archive.query(StoreQuery.builder().hashes(hashes.subList(0, 60)).pageSize(100).build()).messages()).hasSize(10);
            assertThatThrownBy(() -> archive.query(StoreQuery.builder().cursor(hashes.get(0)).build())).isInstanceOf(InvalidQueryException.class);
            assertThat(registry.get("waku.archive.retention.deleted").tag("policy", "time").counter().count()).isEqualTo(50);
            assertThat(registry.get("waku.archive.retention.runs").counter().count()).isEqualTo(1);

            RetentionRun again = archive.applyRetention();
            assertThat(again.deletedMessages()).isZero();
            assertThat(again.entriesVisited()).isZero();
        }
    }

    @Test
    void capacityKeepsTheNewestMessages() {
        List<Envelope> envelopes = messages(300, 30);
        List<MessageHash> hashes = envelopes.stream().map(Envelope::hash).toList();
        try (RocksArchive archive = open(new RetentionPolicy.Capacity(120), 0)) {
            ArchiveFixture.writeAll(archive, envelopes);
            RetentionRun run = archive.applyRetention();
            assertThat(run.deletedMessages()).isEqualTo(180);
            assertThat(run.entriesVisited()).isEqualTo(180);
            ArchiveInspector.assertConsistent(archive, 120);
            assertThat(hashes(allPages(archive, StoreQuery.builder().pageSize(100).build()))).containsExactlyElementsOf(hashes.subList(180, 300));
            assertThat(registry.get("waku.archive.retention.deleted").tag("policy", "capacity").counter().count()).isEqualTo(180);
        }
    }

    @Test
    void sizeDeletesTheOldestUntilTheStoredBytesFit() {
        List<Envelope> envelopes = messages(100, 1_000);
        long[] sizes = envelopes.stream().mapToLong(Envelope::messageSize).toArray();
        long total = java.util.Arrays.stream(sizes).sum();
        long limit = total / 3;
        int firstKept = 0;
        for (long excess = total - limit; excess > 0; firstKept++) {
            excess -= sizes[firstKept];
        }
        try (RocksArchive archive = open(new RetentionPolicy.Size(limit), 0)) {
            ArchiveFixture.writeAll(archive, envelopes);
            RetentionRun run = archive.applyRetention();
            assertThat(run.deletedMessages()).isEqualTo(firstKept);
            assertThat(archive.storedBytes()).isLessThanOrEqualTo(limit).isGreaterThan(limit - sizes[firstKept - 1]);
            ArchiveInspector.assertConsistent(archive, 100 - firstKept);
        }
    }

    @Test
    void largeDeletionsAreSplitIntoChunksAndLeaveNoOrphans() {
        // CHUNK per WriteBatch: 15 full chunks and a partial one
        int count = CHUNK * 15 + 7;
        try (RocksArchive archive = open(new RetentionPolicy.Capacity(300), 0)) {
            ArchiveFixture.writeAll(archive, messages(count, 8));
            RetentionRun run = archive.applyRetention();
            assertThat(run.deletedMessages()).isEqualTo(count - 300);
            assertThat(run.entriesVisited()).isEqualTo(count - 300);
            ArchiveInspector.assertConsistent(archive, 300);

            // what was deleted by range stays deleted for later inserts and scans
            ArchiveFixture.writeAll(archive, messages(count, 10, 8));
            ArchiveInspector.assertConsistent(archive, 310);
        }
    }

    @Test
    void retentionRunsPeriodicallyByItself() {
        RocksConfig config = RocksFixture.config(dir).withCore(c -> c.retention(new RetentionPolicy.Capacity(10))
                .retentionInterval(Duration.ofMillis(50)));
        try (RocksArchive archive = RocksArchive.open(config, registry)) {
            ArchiveFixture.writeAll(archive, messages(100, 10));
            Eventually.until("a periodic pass trimmed the archive", () -> archive.messageCount() == 10);
            ArchiveInspector.assertConsistent(archive, 10);
            assertThat(registry.get("waku.archive.retention.runs").counter().count()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void retentionKeepsTheCountsAcrossARestart() {
        try (RocksArchive archive = open(new RetentionPolicy.Capacity(50), 0)) {
            ArchiveFixture.writeAll(archive, messages(80, 10));
            archive.applyRetention();
        }
        try (RocksArchive reopened = open(new RetentionPolicy.None(), 0)) {
            ArchiveInspector.assertConsistent(reopened, 50);
        }
    }
}
