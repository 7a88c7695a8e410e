package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.BaseSubscriber;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class WriteBackpressureTest {
    private static final int MAX_BATCH = 16;
    private static final int MAX_PENDING = 64;

    @TempDir
    Path dir;

    private RocksConfig config() {
        return RocksFixture.config(dir).withCore(c -> c.maxBatchMessages(MAX_BATCH).maxBatchDelay(Duration.ofMillis(1)).maxPendingMessages(MAX_PENDING));
    }

    @Test
    void upstreamIsNeverAskedForMoreThanMaxPendingBeyondWhatWasCommitted() {
        AtomicLong acknowledged = new AtomicLong();
        AtomicInteger maxPendingSeen = new AtomicInteger();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        EnvelopeSource source = new EnvelopeSource(100);
        RocksArchive[] holder = new RocksArchive[1];
        // a slow disk: the writer falls behind and must hold upstream back
        try (RocksArchive archive = RocksArchive.open(config(), new SimpleMeterRegistry(), ArchiveHooks.DEFAULT.withCommit(real -> batch -> {
            maxPendingSeen.accumulateAndGet(holder[0].pendingMessages(), Math::max);
            sleep(3);
            real.commit(batch);
        }))) {
            holder[0] = archive;
            archive.write(source.flux().take(2_000, true)
                            .doOnRequest(n -> {
                                long ahead = source.requested.get() - acknowledged.get();
                                if (ahead > MAX_PENDING) {
                                    violations.add("requested " + ahead + " ahead of commits");
                                }
                            }))
                    .doOnNext(batch -> acknowledged.addAndGet(batch.envelopes()))
                    .blockLast(Duration.ofSeconds(60));

            assertThat(violations).isEmpty();
            assertThat(acknowledged.get()).isEqualTo(2_000);
            assertThat(maxPendingSeen.get()).isBetween(1, MAX_PENDING);
            assertThat(archive.messageCount()).isEqualTo(2_000);
            assertThat(source.allReleased()).isTrue();
        }
    }

    @Test
    void anAcknowledgementSubscriberThatStopsRequestingPausesTheWriterAndUpstream() {
        EnvelopeSource source = new EnvelopeSource(50);
        try (RocksArchive archive = RocksArchive.open(config(), new SimpleMeterRegistry())) {
            Queue<CommittedBatch> acks = new ConcurrentLinkedQueue<>();
            BaseSubscriber<CommittedBatch> oneAtATime = new BaseSubscriber<>() {
                @Override
                protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
                    request(1);
                }

                @Override
                protected void hookOnNext(CommittedBatch value) {
                    acks.add(value);
                }
            };
            archive.write(source.flux()).subscribe(oneAtATime);

            Eventually.until("the writer filled its pending budget", () -> archive.pendingMessages() == MAX_PENDING);
            sleep(50);
            assertThat(acks).hasSize(1);
            int firstBatch = acks.peek().envelopes();
            assertThat(source.requested.get()).isEqualTo(MAX_PENDING + firstBatch);
            assertThat(source.emitted).hasSize(MAX_PENDING + firstBatch);
            assertThat(archive.messageCount()).isEqualTo(firstBatch);

            oneAtATime.request(1);
            Eventually.until("a second batch", () -> acks.size() == 2);
            oneAtATime.dispose();
            Eventually.until("every envelope released", source::allReleased);
            Eventually.until("nothing pending", () -> archive.pendingMessages() == 0);
        }
    }

    @Test
    void batchesAreAtMostMaxBatchMessages() {
        try (RocksArchive archive = RocksArchive.open(config(), new SimpleMeterRegistry())) {
            var batches = ArchiveFixture.writeAll(archive, TestEnvelopes.sequence(0, 500, 10));
            assertThat(batches).allSatisfy(b -> assertThat(b.envelopes()).isBetween(1, MAX_BATCH));
            assertThat(batches.stream().mapToInt(CommittedBatch::envelopes).sum()).isEqualTo(500);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
