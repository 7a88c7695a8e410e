package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One small flush after another leaves one small SST file per family each time (the case of
 * {@link Durability#FLUSH} at a low message rate); the archive's merger folds them into few files in the background,
 * and every message stays found by every index, before and after a restart.
 */
class SmallFileMergerTest {
    private static final int FLUSHES = 48;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"WAL", "FLUSH"})
    void manySmallFlushesEndInAFewFilesPerFamilyWithEveryMessageStillFound(Durability durability) {
        RocksConfig config = RocksFixture.config(dir).toBuilder().durability(durability).flushInterval(Duration.ZERO).build();
        List<Envelope> envelopes = TestEnvelopes.sequence(0, FLUSHES, 2_000);
        List<MessageHash> hashes = envelopes.stream().map(Envelope::hash).toList();
        MeterRegistry registry = new SimpleMeterRegistry();
        try (RocksArchive archive = RocksArchive.open(config, registry)) {
            for (Envelope envelope : envelopes) {
                ArchiveFixture.writeAll(archive, List.of(envelope));
                archive.flush();
            }

            Eventually.until("the merger folded the small files of every family", Duration.ofSeconds(30),
                    () -> maxFiles(archive) <= FLUSHES / 4);
            assertThat(registry.get("waku.rocksdb.small.files.merged").counter().count())
                    .as("at least one merge of at least " + SmallFileMerger.MIN_FILES + " files")
                    .isGreaterThanOrEqualTo(SmallFileMerger.MIN_FILES);
            assertThat(registry.get("waku.rocksdb.sst.files").gauge().value()).isLessThan(FLUSHES);
            assertAllFound(archive, hashes);
        }
        try (RocksArchive reopened = RocksArchive.open(config, new SimpleMeterRegistry())) {
            assertAllFound(reopened, hashes);
        }
    }

    private static int maxFiles(RocksArchive archive) {
        ArchiveDatabase database = archive.database();
        long most = 0;
        for (ArchiveDatabase.Family family : ArchiveDatabase.Family.values()) {
            most = Math.max(most, database.db().getColumnFamilyMetaData(database.handle(family)).fileCount());
        }
        return (int) most;
    }

    private static void assertAllFound(RocksArchive archive, List<MessageHash> hashes) {
        ArchiveInspector.assertConsistent(archive, hashes.size());
        StoreQuery byTime = StoreQuery.builder().pageSize(StoreQuery.MAX_PAGE_SIZE).includeData(true).build();
        assertThat(ArchiveFixture.hashes(ArchiveFixture.allPages(archive, byTime))).containsExactlyInAnyOrderElementsOf(hashes);
        StoreQuery byContentTopic = StoreQuery.builder().pubsubTopic(TestEnvelopes.PUBSUB).contentTopics(TestEnvelopes.CONTENT)
                .pageSize(7).build();
        assertThat(ArchiveFixture.hashes(ArchiveFixture.allPages(archive, byContentTopic))).containsExactlyInAnyOrderElementsOf(hashes);
        StoreQuery byHash = StoreQuery.builder().hashes(hashes.subList(0, 40)).pageSize(40).includeData(true).build();
        assertThat(archive.query(byHash).messages()).hasSize(40).allSatisfy(m -> assertThat(m.message()).isNotNull());
    }
}
