package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** However a write stream ends, every envelope it emitted is released exactly once (the leak check proves "at least"). */
class WriteStreamTerminationTest {
    @TempDir
    Path dir;

    @Test
    void cancellingTheAcknowledgementsReleasesEverythingQueued() throws Exception {
        CountDownLatch commitMayProceed = new CountDownLatch(1);
        EnvelopeSource source = new EnvelopeSource(100);
        try (RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), new SimpleMeterRegistry(), ArchiveHooks.DEFAULT.withCommit(real -> batch -> {
            await(commitMayProceed);
            real.commit(batch);
        }))) {
            Disposable stream = archive.write(source.flux()).subscribe();
            Eventually.until("the pending budget is full", () -> archive.pendingMessages() == 256);
            stream.dispose();
            commitMayProceed.countDown();
            Eventually.until("every envelope released", source::allReleased);
            assertThat(archive.pendingMessages()).isZero();
            // the batch that was being committed when the cancel came is stored, nothing after it
            assertThat(archive.messageCount()).isEqualTo(64);
        }
    }

    @Test
    void closingWaitsForTheBatchBeingCommittedReleasesTheRestAndFailsTheStream() throws Exception {
        CountDownLatch commitStarted = new CountDownLatch(1);
        CountDownLatch commitMayProceed = new CountDownLatch(1);
        EnvelopeSource source = new EnvelopeSource(100);
        RocksArchive archive = RocksArchive.open(RocksFixture.config(dir), new SimpleMeterRegistry(), ArchiveHooks.DEFAULT.withCommit(real -> batch -> {
            commitStarted.countDown();
            await(commitMayProceed);
            real.commit(batch);
        }));
        AtomicReference<Throwable> streamError = new AtomicReference<>();
        archive.write(source.flux()).subscribe(b -> { }, streamError::set);
        assertThat(commitStarted.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(archive::close);
        Thread.sleep(100);
        assertThat(closing).as("close waits for the batch being committed").isNotDone();
        commitMayProceed.countDown();
        closing.get(10, TimeUnit.SECONDS);

        assertThat(streamError.get()).isInstanceOf(ArchiveClosedException.class);
        assertThat(source.allReleased()).isTrue();
        try (RocksArchive reopened = RocksFixture.open(dir)) {
            assertThat(reopened.messageCount()).isEqualTo(64);
        }
    }

    @Test
    void anUpstreamErrorEndsTheStreamAfterWhatWasReceivedIsCommitted() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 10, 30);
        try (RocksArchive archive = RocksFixture.open(dir)) {
            StepVerifier.create(archive.write(Flux.concat(Flux.fromIterable(envelopes), Flux.error(new IllegalStateException("relay stopped")))))
                    .expectNextMatches(batch -> batch.stored().size() == 10)
                    .expectErrorMessage("relay stopped")
                    .verify(Duration.ofSeconds(10));
            assertThat(archive.messageCount()).isEqualTo(10);
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        }
    }

    @Test
    void envelopesDroppedByUpstreamOperatorsAreReleased() {
        List<Envelope> envelopes = TestEnvelopes.sequence(0, 100, 30);
        try (RocksArchive archive = RocksFixture.open(dir)) {
            // filter discards the odd ones; publishOn's queue discards what it holds when the stream is cut short
            Flux<Envelope> stream = Flux.fromIterable(envelopes)
                    .filter(e -> e.message().payload().getByte(3) % 2 == 0)
                    .publishOn(Schedulers.boundedElastic(), 8);
            List<CommittedBatch> acks = archive.write(stream).collectList().block(Duration.ofSeconds(10));
            assertThat(ArchiveFixture.stored(acks)).hasSize(50);
            assertThat(envelopes).allSatisfy(e -> assertThat(e.refCnt()).isZero());
        }
    }

    @Test
    void aSecondConcurrentWriteStreamIsRefusedWithoutTouchingItsEnvelopes() {
        EnvelopeSource first = new EnvelopeSource(10);
        List<Envelope> second = TestEnvelopes.sequence(1_000, 3, 10);
        try (RocksArchive archive = RocksFixture.open(dir)) {
            Disposable running = archive.write(first.flux()).subscribe();
            StepVerifier.create(archive.write(Flux.fromIterable(second)))
                    .expectErrorMessage("the archive already has a write stream; it takes one at a time")
                    .verify(Duration.ofSeconds(5));
            running.dispose();
            Eventually.until("the first stream released everything", first::allReleased);
        } finally {
            // never subscribed: still the caller's
            assertThat(second).allSatisfy(e -> assertThat(e.refCnt()).isEqualTo(1));
            second.forEach(Envelope::release);
        }
    }

    @Test
    void writingToAClosedArchiveFails() {
        RocksArchive archive = RocksFixture.open(dir);
        archive.close();
        StepVerifier.create(archive.write(Flux.empty())).expectError(ArchiveClosedException.class).verify(Duration.ofSeconds(5));
    }

    @Test
    void closingFromAnAcknowledgementSubscriberIsRefusedInsteadOfWaitingForItself() {
        RocksArchive archive = RocksFixture.open(dir);
        try {
            AtomicReference<Throwable> refused = new AtomicReference<>();
            archive.write(Flux.fromIterable(TestEnvelopes.sequence(0, 3, 10)))
                    .doOnNext(batch -> {
                        try {
                            archive.close();
                        } catch (IllegalStateException e) {
                            refused.set(e);
                        }
                    })
                    .blockLast(Duration.ofSeconds(10));
            assertThat(refused.get()).hasMessageContaining("must not be called on the archive's writer thread");
            assertThat(archive.healthy()).isTrue();
        } finally {
            archive.close();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
