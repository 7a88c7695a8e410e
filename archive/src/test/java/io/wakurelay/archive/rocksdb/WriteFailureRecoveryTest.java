package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import reactor.core.Disposable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RocksDB refusing writes, as it does when the disk is full: the error RocksDB raises is put in front of the
 * real write of a real database (DiskFullRecoveryTest does it with a real full disk where mounting is allowed).
 */
class WriteFailureRecoveryTest {
    @TempDir
    Path dir;

    private static RocksDBException noSpace() {
        return new RocksDBException("IO error: No space left on device",
                new Status(Status.Code.IOError, Status.SubCode.NoSpace, "While appending to file: 000004.log: No space left on device"));
    }

    @Test
    void aRefusedBatchIsRetriedNotDroppedAndNothingIsAcknowledgedBeforeItCommits() {
        AtomicInteger failuresLeft = new AtomicInteger(3);
        Queue<String> events = new ConcurrentLinkedQueue<>();
        MeterRegistry registry = new SimpleMeterRegistry();
        try (RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), registry, ArchiveHooks.DEFAULT.withCommit(real -> batch -> {
            if (failuresLeft.getAndDecrement() > 0) {
                events.add("refused");
                throw noSpace();
            }
            real.commit(batch);
        }))) {
            var envelopes = TestEnvelopes.sequence(0, 200, 100);
            List<MessageHash> expected = envelopes.stream().map(e -> e.hash()).toList();
            List<CommittedBatch> acks = archive.write(reactor.core.publisher.Flux.fromIterable(envelopes))
                    .doOnNext(b -> events.add("ack"))
                    .collectList().block(Duration.ofSeconds(30));

            assertThat(events).startsWith("refused", "refused", "refused", "ack");
            assertThat(ArchiveFixture.stored(acks)).containsExactlyElementsOf(expected);
            assertThat(registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count()).isEqualTo(3);
            assertThat(archive.messageCount()).isEqualTo(200);
            assertThat(archive.healthy()).isTrue();
            assertThat(archive.lastWriteError()).get().asString().contains("NoSpace");
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        }
    }

    @Test
    void whileWritesFailUpstreamIsPausedAndTheArchiveReportsUnhealthyUntilTheyRecover() {
        AtomicBoolean diskFull = new AtomicBoolean(true);
        MeterRegistry registry = new SimpleMeterRegistry();
        RocksConfig config = RocksFixture.config(dir).withCore(c -> c.maxBatchMessages(16).maxBatchDelay(Duration.ofMillis(1)).maxPendingMessages(64));
        try (RocksArchive archive = RocksArchive.open(config, registry, ArchiveHooks.DEFAULT.withCommit(real -> batch -> {
            if (diskFull.get()) {
                throw noSpace();
            }
            real.commit(batch);
        }))) {
            EnvelopeSource source = new EnvelopeSource(64);
            List<CommittedBatch> acks = new CopyOnWriteArrayList<>();
            Disposable stream = archive.write(source.flux()).subscribe(acks::add);

            Eventually.until("three refused attempts", () -> registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count() >= 3);
            long requestedWhileFailing = source.requested.get();
            Eventually.until("a fourth refused attempt", () -> registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count() >= 4);
            assertThat(source.requested.get()).as("upstream asked for nothing more").isEqualTo(requestedWhileFailing).isEqualTo(64);
            assertThat(acks).isEmpty();
            assertThat(archive.healthy()).isFalse();
            assertThat(archive.pendingMessages()).isEqualTo(64);
            assertThat(archive.messageCount()).isZero();

            diskFull.set(false);
            Eventually.until("writes recovered", () -> acks.size() >= 5);
            assertThat(archive.healthy()).isTrue();
            stream.dispose();
            Eventually.until("every envelope released", source::allReleased);
            long acknowledged = acks.stream().mapToLong(b -> b.stored().size()).sum();
            assertThat(archive.messageCount()).isEqualTo(acknowledged);
        }
    }

    @Test
    void closingWhileABatchIsHeldReleasesItAndEndsTheStream() {
        MeterRegistry registry = new SimpleMeterRegistry();
        RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), registry, ArchiveHooks.DEFAULT.withCommit(real -> batch -> {
            throw noSpace();
        }));
        EnvelopeSource source = new EnvelopeSource(64);
        AtomicBoolean failedWithClosed = new AtomicBoolean();
        archive.write(source.flux()).subscribe(b -> { }, e -> failedWithClosed.set(e instanceof ArchiveClosedException));
        Eventually.until("a refused attempt", () -> registry.get("waku.archive.errors").tag("type", "insert_failure").counter().count() >= 1);

        archive.close();

        assertThat(failedWithClosed).isTrue();
        assertThat(source.allReleased()).isTrue();
        assertThat(source.emitted).isNotEmpty();
    }
}
