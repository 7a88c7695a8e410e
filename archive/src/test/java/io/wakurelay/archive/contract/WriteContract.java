package io.wakurelay.archive.contract;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.CoreConfigBuilder;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.hashes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The write path's promises, whatever the backend: an acknowledgement only for what the Store then finds, duplicates
 * and ephemeral messages not stored, credits that bound what upstream is asked for, one write stream at a time, the
 * end of the stream, and a page's byte budget. Subclasses open the archive of their backend.
 */
public abstract class WriteContract {
    protected static final int MAX_BATCH = 16;
    protected static final int MAX_PENDING = 64;

    /** A new empty archive of the backend under test, retention none, with {@code tune} applied to its config. */
    protected abstract MessageArchive open(java.util.function.UnaryOperator<CoreConfigBuilder> tune);

    protected MessageArchive open() {
        return open(b -> b.maxBatchMessages(MAX_BATCH).maxBatchDelay(Duration.ofMillis(1)).maxPendingMessages(MAX_PENDING));
    }

    /** The archive's message count, counted now. */
    protected abstract long count(MessageArchive archive);

    @Test
    void everyAcknowledgedMessageIsFoundByTheStoreWhenItsAcknowledgementArrives() {
        try (MessageArchive archive = open()) {
            List<MessageHash> missing = new CopyOnWriteArrayList<>();
            List<MessageHash> acknowledged = new CopyOnWriteArrayList<>();
            archive.write(Flux.fromIterable(TestEnvelopes.sequence(0, 300, 200)))
                    .doOnNext(batch -> {
                        // on the writer thread, before the next batch is written: what is acknowledged is there already
                        StoreQuery query = StoreQuery.builder().hashes(batch.stored()).pageSize(100).build();
                        Set<MessageHash> found = Set.copyOf(hashes(archive.query(query).messages()));
                        batch.stored().stream().filter(h -> !found.contains(h)).forEach(missing::add);
                        acknowledged.addAll(batch.stored());
                    })
                    .blockLast(Duration.ofSeconds(60));
            assertThat(missing).isEmpty();
            assertThat(acknowledged).hasSize(300).doesNotHaveDuplicates();
            assertThat(count(archive)).isEqualTo(300);
        }
    }

    @Test
    void aMessageFarFromTheClockIsLeftOutBeforeItTakesACreditAndTheOthersAreStored() {
        long now = TestMessages.nowNanos();
        try (MessageArchive archive = open(b -> b.maxBatchMessages(MAX_BATCH).maxBatchDelay(Duration.ofMillis(1))
                .maxPendingMessages(MAX_PENDING).timestampWindow(Duration.ofSeconds(20)))) {
            Envelope fresh = TestEnvelopes.envelope(2, 32, now);
            MessageHash freshHash = fresh.hash();
            List<Envelope> envelopes = List.of(TestEnvelopes.envelope(1, 32, now - 3_600_000_000_000L), fresh,
                    TestEnvelopes.envelope(3, 32, now + 3_600_000_000_000L));
            List<CommittedBatch> batches = ArchiveFixture.writeAll(archive, envelopes);
            assertThat(ArchiveFixture.stored(batches)).containsExactly(freshHash);
            assertThat(batches.stream().mapToInt(CommittedBatch::envelopes).sum()).as("the far two never reached a batch")
                    .isEqualTo(1);
            assertThat(count(archive)).isEqualTo(1);
        }
    }

    @Test
    void duplicatesWithinABatchAndAcrossBatchesAreStoredOnceAndCounted() {
        try (MessageArchive archive = open()) {
            List<Envelope> first = TestEnvelopes.sequence(0, 40, 32);
            first.add(TestEnvelopes.envelope(5, 32, TestEnvelopes.BASE_TIME + 5));
            List<CommittedBatch> batches = ArchiveFixture.writeAll(archive, first);
            assertThat(ArchiveFixture.stored(batches)).hasSize(40);
            assertThat(batches.stream().mapToInt(CommittedBatch::duplicates).sum()).isEqualTo(1);

            List<CommittedBatch> again = ArchiveFixture.writeAll(archive, TestEnvelopes.sequence(30, 20, 32));
            assertThat(ArchiveFixture.stored(again)).hasSize(10);
            assertThat(again.stream().mapToInt(CommittedBatch::duplicates).sum()).isEqualTo(10);
            assertThat(count(archive)).isEqualTo(50);
            assertThat(allPages(archive, StoreQuery.builder().pageSize(100).build())).hasSize(50);
        }
    }

    @Test
    void ephemeralMessagesAreAcknowledgedButNotStored() {
        try (MessageArchive archive = open()) {
            List<Envelope> envelopes = new ArrayList<>(TestEnvelopes.sequence(0, 5, 32));
            envelopes.add(TestEnvelopes.ephemeral(100));
            envelopes.add(TestEnvelopes.ephemeral(101));
            List<CommittedBatch> batches = ArchiveFixture.writeAll(archive, envelopes);
            assertThat(batches.stream().mapToInt(CommittedBatch::ephemeralSkipped).sum()).isEqualTo(2);
            assertThat(batches.stream().mapToInt(CommittedBatch::envelopes).sum()).isEqualTo(7);
            assertThat(count(archive)).isEqualTo(5);
        }
    }

    @Test
    void upstreamIsNeverAskedForMoreThanMaxPendingBeyondWhatWasAcknowledged() {
        AtomicLong acknowledged = new AtomicLong();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        EnvelopeSource source = new EnvelopeSource(100);
        try (MessageArchive archive = open()) {
            archive.write(source.flux().take(1_000, true)
                            .doOnRequest(n -> {
                                long ahead = source.requested.get() - acknowledged.get();
                                if (ahead > MAX_PENDING) {
                                    violations.add("requested " + ahead + " ahead of acknowledgements");
                                }
                            }))
                    .doOnNext(batch -> {
                        assertThat(batch.envelopes()).isBetween(1, MAX_BATCH);
                        acknowledged.addAndGet(batch.envelopes());
                    })
                    .blockLast(Duration.ofSeconds(60));
            assertThat(violations).isEmpty();
            assertThat(acknowledged.get()).isEqualTo(1_000);
            assertThat(source.allReleased()).isTrue();
        }
    }

    @Test
    void anAcknowledgementSubscriberThatStopsRequestingPausesTheWriterAndUpstream() {
        EnvelopeSource source = new EnvelopeSource(50);
        try (MessageArchive archive = open()) {
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
            sleep(100);
            assertThat(acks).hasSize(1);
            int firstBatch = acks.peek().envelopes();
            assertThat(source.requested.get()).isEqualTo(MAX_PENDING + firstBatch);
            assertThat(count(archive)).isEqualTo(firstBatch);

            oneAtATime.request(1);
            Eventually.until("a second batch", () -> acks.size() == 2);
            oneAtATime.dispose();
            Eventually.until("every envelope released", source::allReleased);
            Eventually.until("nothing pending", () -> archive.pendingMessages() == 0);
        }
    }

    @Test
    void aSecondWriteStreamIsRefusedWhileTheFirstRuns() {
        try (MessageArchive archive = open()) {
            EnvelopeSource source = new EnvelopeSource(10);
            var first = archive.write(source.flux()).subscribe();
            Eventually.until("the first stream writes", () -> !source.emitted.isEmpty());
            assertThatThrownBy(() -> archive.write(Flux.<Envelope>never()).blockLast(Duration.ofSeconds(10)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("one at a time");
            first.dispose();
            Eventually.until("every envelope released", source::allReleased);
        }
    }

    @Test
    void closingEndsTheWriteStreamWithArchiveClosedAndReleasesWhatItHeld() {
        EnvelopeSource source = new EnvelopeSource(10);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        MessageArchive archive = open();
        archive.write(source.flux()).subscribe(b -> { }, errors::add);
        Eventually.until("the stream writes", () -> source.emitted.size() > MAX_PENDING);
        archive.close();
        Eventually.until("the stream failed", () -> !errors.isEmpty());
        assertThat(errors.get(0)).isInstanceOf(ArchiveClosedException.class);
        Eventually.until("every envelope released", source::allReleased);
        assertThatThrownBy(() -> archive.query(StoreQuery.builder().build())).isInstanceOf(ArchiveClosedException.class);
        assertThat(archive.healthy()).isFalse();
    }

    @Test
    void aPageWithDataEndsBeforeTheMessageThatWouldPassItsByteBudgetWithACursor() {
        try (MessageArchive archive = open()) {
            ArchiveFixture.writeAll(archive, TestEnvelopes.sequence(0, 10, 1_000));
            StoreQuery query = StoreQuery.builder().includeData(true).pageSize(10).build();
            List<MessageHash> all = hashes(archive.query(query).messages());
            try (StorePage page = archive.openPage(query, 3_500)) {
                assertThat(page.size()).isEqualTo(3);
                assertThat(page.paginationCursor()).isEqualTo(all.get(2));
                List<StoredMessage> read = new ArrayList<>();
                page.forEachRemaining(read::add);
                assertThat(hashes(read)).containsExactlyElementsOf(all.subList(0, 3));
                assertThat(read).allSatisfy(m -> assertThat(m.message().getPayload().size()).isEqualTo(1_000));
            }
            try (StorePage tiny = archive.openPage(query, 1)) {
                assertThat(tiny.size()).isEqualTo(1);
                assertThat(tiny.next().hash()).isEqualTo(all.get(0));
            }
        }
    }

    @Test
    void pagingWhileMessagesAreInsertedReturnsEveryEarlierMessageOnceAndInOrder() {
        try (MessageArchive archive = open()) {
            List<Envelope> first = TestEnvelopes.sequence(0, 200, 20);
            ArchiveFixture.writeAll(archive, first);
            EnvelopeSource later = new EnvelopeSource(20, 10_000, i -> TestEnvelopes.BASE_TIME + 1_000 + i);
            var writing = archive.write(later.flux().take(400, true)).subscribe();
            List<StoredMessage> paged = allPages(archive, StoreQuery.builder().pageSize(7).build());
            writing.dispose();
            List<MessageHash> expected = first.stream().map(Envelope::hash).sorted().toList();
            // the first 200 have the smallest timestamps: they come first, once each, in (timestamp, hash) order
            assertThat(hashes(paged).subList(0, 200)).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(hashes(paged)).doesNotHaveDuplicates();
            assertThat(paged).isSortedAccordingTo(java.util.Comparator.comparingLong(StoredMessage::timestamp)
                    .thenComparing(StoredMessage::hash));
            Eventually.until("every envelope released", later::allReleased);
        }
    }

    protected static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
