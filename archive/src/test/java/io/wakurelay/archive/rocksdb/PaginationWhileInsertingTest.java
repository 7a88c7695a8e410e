package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.CommittedBatch;
import io.wakurelay.archive.EnvelopeSource;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cursor is a position in (timestamp, hash) order, so paging returns every matching message exactly once
 * and in order even while messages are inserted around the position it has reached.
 */
class PaginationWhileInsertingTest {
    private static final String CONTENT = TestEnvelopes.CONTENT;
    private static final long STEP = 1_000;

    @TempDir
    Path dir;

    @Test
    void insertsBetweenPagesNeitherRepeatNorHideMessages() throws Exception {
        for (boolean ascending : new boolean[]{true, false}) {
            Path subDir = dir.resolve(ascending ? "forward" : "backward");
            try (RocksArchive archive = RocksFixture.open(subDir)) {
                List<Envelope> initial = new ArrayList<>();
                for (int i = 0; i < 1_000; i++) {
                    initial.add(TestEnvelopes.envelope(TestEnvelopes.PUBSUB, CONTENT, i, 16, TestEnvelopes.BASE_TIME + i * STEP));
                }
                Set<MessageHash> before = new HashSet<>(ArchiveFixture.stored(ArchiveFixture.writeAll(archive, initial)));

                Sinks.Many<Envelope> relay = Sinks.many().unicast().onBackpressureBuffer();
                BlockingQueue<CommittedBatch> acks = new LinkedBlockingQueue<>();
                Disposable stream = archive.write(relay.asFlux()).subscribe(acks::add);

                SplittableRandom random = new SplittableRandom(ascending ? 1 : 2);
                List<MessageHash> seen = new ArrayList<>();
                List<Long> seenTimes = new ArrayList<>();
                Set<MessageHash> insertedAhead = new HashSet<>();
                StoreQuery query = StoreQuery.builder().pubsubTopic(TestEnvelopes.PUBSUB).contentTopics(CONTENT)
                        .ascending(ascending).pageSize(1 + random.nextInt(40)).build();
                int next = 10_000;
                for (int page = 0; ; page++) {
                    StoreResponse response = archive.query(query);
                    List<StoredMessage> messages = new ArrayList<>(response.messages());
                    if (!ascending) {
                        java.util.Collections.reverse(messages);
                    }
                    messages.forEach(m -> {
                        seen.add(m.hash());
                        seenTimes.add(m.timestamp());
                    });
                    if (response.paginationCursor() == null) {
                        break;
                    }
                    long reached = seenTimes.get(seenTimes.size() - 1);
                    // between pages: new messages behind the position reached, at it, and ahead of it
                    List<Envelope> batch = new ArrayList<>();
                    for (int k = 0; k < 6; k++) {
                        long offset = (k - 2) * STEP * 3 + (k % 2 == 0 ? 0 : STEP / 2);
                        long timestamp = ascending ? reached + offset : reached - offset;
                        Envelope e = TestEnvelopes.envelope(TestEnvelopes.PUBSUB, CONTENT, next++, 16, timestamp);
                        if (k >= 3) {
                            insertedAhead.add(e.hash());
                        }
                        batch.add(e);
                    }
                    int expected = batch.size();
                    batch.forEach(relay::tryEmitNext);
                    int acknowledged = 0;
                    while (acknowledged < expected) {
                        CommittedBatch ack = acks.poll(10, TimeUnit.SECONDS);
                        assertThat(ack).as("inserts between pages are acknowledged").isNotNull();
                        acknowledged += ack.envelopes();
                    }
                    query = query.toBuilder().cursor(response.paginationCursor()).pageSize(1 + random.nextInt(40)).build();
                    assertThat(page).isLessThan(10_000);
                }
                relay.tryEmitComplete();
                stream.dispose();

                assertThat(seen).doesNotHaveDuplicates();
                assertThat(seen).containsAll(before);
                assertThat(seen).containsAll(insertedAhead);
                for (int i = 0; i + 1 < seenTimes.size(); i++) {
                    assertThat(ascending ? seenTimes.get(i) <= seenTimes.get(i + 1) : seenTimes.get(i) >= seenTimes.get(i + 1))
                            .as("in order at %d", i).isTrue();
                }
            }
        }
    }

    @Test
    void pagingWhileAStreamWritesConcurrentlyReturnsEveryEarlierMessageOnceInOrder() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            List<Envelope> initial = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                initial.add(TestEnvelopes.envelope(TestEnvelopes.PUBSUB, CONTENT, i, 16, TestEnvelopes.BASE_TIME + i * STEP));
            }
            Set<MessageHash> before = new HashSet<>(ArchiveFixture.stored(ArchiveFixture.writeAll(archive, initial)));

            // a stream interleaving new timestamps all over the range being paged
            EnvelopeSource concurrent = new EnvelopeSource(16, 100_000, index -> TestEnvelopes.BASE_TIME + (index * 7L % 2_000) * STEP + 1);
            Disposable writing = archive.write(concurrent.flux().take(20_000, true)).subscribe();

            List<StoredMessage> all = ArchiveFixture.allPages(archive, StoreQuery.builder().pubsubTopic(TestEnvelopes.PUBSUB)
                    .contentTopics(CONTENT).pageSize(25).build());
            writing.dispose();
            Eventually.until("the concurrent stream released everything", concurrent::allReleased);

            List<MessageHash> hashes = ArchiveFixture.hashes(all);
            assertThat(hashes).doesNotHaveDuplicates().containsAll(before);
            for (int i = 0; i + 1 < all.size(); i++) {
                StoredMessage a = all.get(i);
                StoredMessage b = all.get(i + 1);
                assertThat(a.timestamp() < b.timestamp() || (a.timestamp() == b.timestamp() && a.hash().compareTo(b.hash()) < 0))
                        .as("strictly increasing at %d", i).isTrue();
            }
        }
    }
}
