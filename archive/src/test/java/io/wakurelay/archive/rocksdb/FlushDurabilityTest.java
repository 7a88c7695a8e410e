package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Durability#FLUSH} on a real RocksDB: a written batch is neither acknowledged nor found by a Store query
 * until a flush wrote it, the flush comes within the flush interval (or at once when the stream ends), and what was
 * written and never acknowledged is still stored after a clean close (RocksDB's close flushes it).
 */
class FlushDurabilityTest {
    private static final StoreQuery EVERYTHING = StoreQuery.builder().pageSize(100).build();

    @TempDir
    Path dir;

    private RocksConfig config(Duration flushInterval) {
        return RocksFixture.config(dir).toBuilder().durability(Durability.FLUSH).flushInterval(flushInterval).build();
    }

    @Test
    void aBatchIsAcknowledgedAndQueryableOnlyOnceAFlushWroteItAndTheEndOfTheStreamFlushesAtOnce() {
        MeterRegistry registry = new SimpleMeterRegistry();
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 10, 1_000);
        List<CommittedBatch> acks = new CopyOnWriteArrayList<>();
        Sinks.Many<Envelope> upstream = Sinks.many().unicast().onBackpressureBuffer();
        try (RocksArchive archive = RocksArchive.open(config(Duration.ofSeconds(60)), registry)) {
            Disposable subscription = archive.write(upstream.asFlux()).subscribe(acks::add);
            envelopes.forEach(upstream::tryEmitNext);

            Eventually.until("all ten written", () -> registry.get("waku.archive.unacknowledged").gauge().value() == 10);
            assertThat(envelopes).as("released once written").allSatisfy(e -> assertThat(e.refCnt()).isZero());
            assertThat(acks).as("no flush yet: nothing acknowledged").isEmpty();
            assertThat(archive.query(EVERYTHING).messages()).as("nor visible to the Store").isEmpty();
            assertThat(registry.get("waku.archive.flush.duration").timer().count()).isZero();

            upstream.tryEmitComplete();
            Eventually.until("the end of the stream flushed and acknowledged everything",
                    () -> acks.stream().mapToInt(CommittedBatch::envelopes).sum() == 10);
            assertThat(ArchiveFixture.stored(acks)).containsExactlyElementsOf(envelopes.stream().map(Envelope::hash).toList());
            assertThat(ArchiveFixture.hashes(archive.query(EVERYTHING).messages())).hasSize(10);
            assertThat(registry.get("waku.archive.unacknowledged").gauge().value()).isZero();
            assertThat(registry.get("waku.archive.flush.duration").timer().count()).isEqualTo(1);
            subscription.dispose();
        }
    }

    @Test
    void aWrittenBatchIsFlushedAndAcknowledgedWithinTheFlushIntervalWhileTheStreamGoesOn() {
        MeterRegistry registry = new SimpleMeterRegistry();
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 3, 1_000);
        List<CommittedBatch> acks = new CopyOnWriteArrayList<>();
        Sinks.Many<Envelope> upstream = Sinks.many().unicast().onBackpressureBuffer();
        try (RocksArchive archive = RocksArchive.open(config(Duration.ofMillis(100)), registry)) {
            Disposable subscription = archive.write(upstream.asFlux()).subscribe(acks::add);
            envelopes.forEach(upstream::tryEmitNext);
            Eventually.until("acknowledged after the interval's flush", Duration.ofSeconds(10),
                    () -> acks.stream().mapToInt(CommittedBatch::envelopes).sum() == 3);
            assertThat(ArchiveFixture.hashes(archive.query(EVERYTHING).messages())).hasSize(3);
            assertThat(registry.get("waku.archive.flush.duration").timer().count()).isGreaterThanOrEqualTo(1);
            subscription.dispose();
        }
    }

    @Test
    void aStorePageKeepsReadingItsSnapshotAfterALaterFlushReplacedIt() {
        List<Envelope> first = TestEnvelopes.sequence(0, 5, 1_000);
        List<Envelope> second = TestEnvelopes.sequence(5, 5, 1_000);
        try (RocksArchive archive = RocksArchive.open(config(Duration.ofMillis(10)), new SimpleMeterRegistry())) {
            ArchiveFixture.writeAll(archive, first);
            try (StorePage page = archive.openPage(EVERYTHING, Long.MAX_VALUE)) {
                ArchiveFixture.writeAll(archive, second);
                assertThat(archive.query(EVERYTHING).messages()).as("a new query reads the newer flush").hasSize(10);
                List<MessageHash> read = new ArrayList<>();
                page.forEachRemaining(m -> read.add(m.hash()));
                assertThat(read).as("the open page reads what was durable when it opened")
                        .containsExactlyElementsOf(first.stream().map(Envelope::hash).toList());
            }
            assertThat(archive.query(EVERYTHING).messages()).hasSize(10);
        }
    }

    @Test
    void retentionsDeletesReachTheStoresSnapshotWithAFlushOfTheirOwnOnAnIdleArchive() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 10, 1_000);
        RocksConfig config = config(Duration.ofMillis(50)).withCore(c -> c.retention(new RetentionPolicy.Capacity(4)));
        try (RocksArchive archive = RocksArchive.open(config, new SimpleMeterRegistry())) {
            ArchiveFixture.writeAll(archive, envelopes);
            assertThat(archive.query(EVERYTHING).messages()).hasSize(10);
            assertThat(archive.applyRetention().deletedMessages()).isEqualTo(6);
            Eventually.until("the deletes are flushed and the Store no longer finds the deleted messages", Duration.ofSeconds(10),
                    () -> archive.query(EVERYTHING).messages().size() == 4);
        }
        try (RocksArchive reopened = RocksArchive.open(config, new SimpleMeterRegistry())) {
            assertThat(reopened.messageCount()).isEqualTo(4);
        }
    }

    @Test
    void whatWasWrittenAndNeverAcknowledgedIsStoredAfterACleanClose() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 4, 1_000);
        MeterRegistry registry = new SimpleMeterRegistry();
        Sinks.Many<Envelope> upstream = Sinks.many().unicast().onBackpressureBuffer();
        List<CommittedBatch> acks = new CopyOnWriteArrayList<>();
        try (RocksArchive archive = RocksArchive.open(config(Duration.ofSeconds(60)), registry)) {
            archive.write(upstream.asFlux()).subscribe(acks::add, e -> { });
            envelopes.forEach(upstream::tryEmitNext);
            Eventually.until("all four written", () -> registry.get("waku.archive.unacknowledged").gauge().value() == 4);
        }
        assertThat(acks).isEmpty();
        try (RocksArchive reopened = RocksArchive.open(config(Duration.ofSeconds(60)), new SimpleMeterRegistry())) {
            assertThat(reopened.messageCount()).isEqualTo(4);
            assertThat(reopened.query(EVERYTHING).messages()).hasSize(4);
        }
    }
}
