package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.SmallDisk;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real full disk: the archive lives on a 64 MiB tmpfs that a filler file fills up. With a WAL its append fails
 * with ENOSPC; without one ({@link Durability#FLUSH}) the flush that would acknowledge the written batches fails, and
 * RocksDB then refuses writes too (its background error). Once the filler is deleted RocksDB clears its background
 * error by itself (its SstFileManager polls the free space), the held batch commits and the flush succeeds. Needs
 * permission to mount (root, as CI runs); skipped elsewhere.
 */
class DiskFullRecoveryTest {
    /**
     * Two batches of 250 messages of 20 kB, each more than the archive's 4 MiB memtable budget. Without a WAL the first
     * batch goes into the memtables although the disk is full; the second then finds the memtables over the budget
     * before any flush could fail. RocksDB's WriteBufferManager used to stall that write until a flush freed memory,
     * and a stalled write blocks RocksDB's own recovery from the full disk: the writer hung for good (ADR 0016).
     */
    private static final int MESSAGES = 500;
    private static final int BATCH = 250;

    @RegisterExtension
    final SmallDisk disk = new SmallDisk("64m");

    @ParameterizedTest
    @EnumSource(value = Durability.class, names = {"WAL", "FLUSH"})
    void writesPauseWhileTheDiskIsFullAndEverythingIsStoredOnceSpaceReturns(Durability durability) throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        RocksConfig config = RocksFixture.config(disk.root().resolve("archive")).toBuilder().durability(durability).build()
                .withCore(c -> c.maxBatchMessages(BATCH).maxPendingMessages(MESSAGES).maxBatchDelay(Duration.ofMillis(50)));
        List<Envelope> envelopes = TestEnvelopes.sequence(0, MESSAGES, 20_000);
        List<MessageHash> expected = envelopes.stream().map(Envelope::hash).toList();
        try (RocksArchive archive = RocksArchive.open(config, registry)) {
            Path filler = disk.fill("filler");
            List<CommittedBatch> acks = new CopyOnWriteArrayList<>();
            archive.write(Flux.fromIterable(envelopes)).subscribe(acks::add);

            // what fits in the WAL's preallocated space may still commit; then writes fail, and nothing is acknowledged
            Eventually.until("the write failed for lack of space", () -> registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count() >= 1);
            int acknowledgedBeforeFull = acks.size();
            Eventually.until("another refused attempt", () -> registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count() >= 3);
            assertThat(acks).hasSize(acknowledgedBeforeFull);
            assertThat(archive.healthy()).isFalse();
            assertThat(archive.lastWriteError()).get().asString().contains("No space left on device");

            Files.delete(filler);
            Eventually.until("every envelope acknowledged", Duration.ofSeconds(60),
                    () -> acks.stream().mapToInt(CommittedBatch::envelopes).sum() == envelopes.size());
            assertThat(archive.healthy()).isTrue();
            assertThat(ArchiveFixture.stored(acks)).containsExactlyElementsOf(expected);
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        }
        try (RocksArchive reopened = RocksArchive.open(config, new SimpleMeterRegistry())) {
            assertThat(ArchiveFixture.hashes(ArchiveFixture.allPages(reopened, StoreQuery.builder().pageSize(100).build())))
                    .containsExactlyElementsOf(expected);
            assertThat(reopened.messageCount()).isEqualTo(MESSAGES);
        }
    }
}
