package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pages read message by message under a byte budget: where they end, that paging still returns everything once. */
class StorePageTest {
    private static final int MESSAGES = 30;

    @TempDir
    Path dir;

    /** 30 messages of about 1,000 stored bytes each (payloads of 900 to 1,100 bytes), 1 ns apart. */
    private static List<Envelope> messages() {
        List<Envelope> envelopes = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            envelopes.add(TestEnvelopes.envelope(i, 900 + (i * 37) % 200, TestEnvelopes.BASE_TIME + i));
        }
        return envelopes;
    }

    private static List<StoredMessage> drain(StorePage page) {
        List<StoredMessage> out = new ArrayList<>();
        page.forEachRemaining(out::add);
        return out;
    }

    @Test
    void aPageWithDataEndsEarlyWithACursorOnceItsNextMessageWouldPassTheByteBudgetAndPagingStillReturnsEverythingOnce() {
        List<Envelope> envelopes = messages();
        List<MessageHash> written = envelopes.stream().map(Envelope::hash).toList();
        long[] sizes = envelopes.stream().mapToLong(Envelope::messageSize).toArray();
        try (RocksArchive archive = RocksFixture.open(dir)) {
            ArchiveFixture.writeAll(archive, envelopes);
            long budget = 3_500;
            for (boolean ascending : new boolean[]{true, false}) {
                StoreQuery query = StoreQuery.builder().pageSize(100).includeData(true).ascending(ascending).build();
                List<MessageHash> seen = new ArrayList<>();
                int pages = 0;
                while (true) {
                    try (StorePage page = archive.openPage(query, budget)) {
                        pages++;
                        assertThat(page.dataBytes()).as("page %d", pages).isLessThanOrEqualTo(budget).isPositive();
                        List<StoredMessage> messages = drain(page);
                        assertThat(messages).hasSize(page.size());
                        assertThat(messages).allSatisfy(m -> assertThat(m.message()).isNotNull());
                        long bytes = messages.stream().mapToLong(m -> m.message().getSerializedSize()).sum();
                        assertThat(bytes).as("the stored bytes the page counts").isEqualTo(page.dataBytes());
                        List<MessageHash> inPage = new ArrayList<>(messages.stream().map(StoredMessage::hash).toList());
                        if (!ascending) {
                            Collections.reverse(inPage); // pages come oldest first; a backward walk goes newest first
                        }
                        seen.addAll(inPage);
                        if (page.paginationCursor() == null) {
                            break;
                        }
                        assertThat(page.paginationCursor()).as("the cursor is where the scan stopped").isEqualTo(inPage.get(inPage.size() - 1));
                        query = query.withCursor(page.paginationCursor());
                    }
                }
                List<MessageHash> expected = new ArrayList<>(written);
                if (!ascending) {
                    Collections.reverse(expected);
                }
                assertThat(seen).as("ascending=%s", ascending).containsExactlyElementsOf(expected);
                // about 1,000 bytes each: three per page of 3,500 bytes
                assertThat(pages).as("pages for %d messages of %d to %d bytes", MESSAGES,
                        java.util.Arrays.stream(sizes).min().getAsLong(), java.util.Arrays.stream(sizes).max().getAsLong()).isEqualTo(10);
            }
        }
    }

    @Test
    void thePageSizeStillEndsAPageWithinTheBudgetAndTheLastPageHasNoCursor() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            ArchiveFixture.writeAll(archive, messages());
            try (StorePage page = archive.openPage(StoreQuery.builder().pageSize(20).includeData(true).build(), 1 << 20)) {
                assertThat(page.size()).isEqualTo(20);
                assertThat(page.paginationCursor()).isNotNull();
            }
            try (StorePage page = archive.openPage(StoreQuery.builder().pageSize(100).includeData(true).build(), 1 << 20)) {
                assertThat(page.size()).isEqualTo(MESSAGES);
                assertThat(page.paginationCursor()).isNull();
            }
        }
    }

    @Test
    void theFirstMessageIsAlwaysInEvenWhenLargerThanTheBudgetSoPagingAlwaysProgresses() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            ArchiveFixture.writeAll(archive, messages());
            try (StorePage page = archive.openPage(StoreQuery.builder().includeData(true).build(), 1)) {
                assertThat(page.size()).isEqualTo(1);
                assertThat(page.paginationCursor()).isEqualTo(drain(page).get(0).hash());
            }
        }
    }

    @Test
    void withoutDataTheBudgetDoesNotApply() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            ArchiveFixture.writeAll(archive, messages());
            try (StorePage page = archive.openPage(StoreQuery.builder().pageSize(100).build(), 1)) {
                assertThat(page.size()).isEqualTo(MESSAGES);
                assertThat(page.dataBytes()).isZero();
                assertThat(drain(page)).allSatisfy(m -> assertThat(m.message()).isNull());
            }
        }
    }

    @Test
    void aPageReadsWhatItsSnapshotHeldWhenItOpenedEvenIfRetentionDeletesItMeanwhile() {
        RocksArchive archive = RocksArchive.open(RocksFixture.config(dir).withCore(c -> c.retention(new RetentionPolicy.Capacity(1))), new SimpleMeterRegistry());
        try (archive) {
            ArchiveFixture.writeAll(archive, messages());
            try (StorePage page = archive.openPage(StoreQuery.builder().pageSize(100).includeData(true).build(), 1 << 20)) {
                assertThat(archive.applyRetention().deletedMessages()).isEqualTo(MESSAGES - 1);
                assertThat(archive.query(StoreQuery.builder().pageSize(100).build()).messages()).hasSize(1);
                assertThat(drain(page)).hasSize(MESSAGES).allSatisfy(m -> assertThat(m.message()).isNotNull());
            }
        }
    }

    @Test
    void closingTheArchiveClosesItsOpenPagesWhichThenRefuseToRead() {
        RocksArchive archive = RocksFixture.open(dir);
        ArchiveFixture.writeAll(archive, messages());
        StorePage page = archive.openPage(StoreQuery.builder().pageSize(10).includeData(true).build(), 1 << 20);
        page.next();
        archive.close();
        assertThat(page.hasNext()).isTrue();
        assertThatThrownBy(page::next).isInstanceOf(ArchiveClosedException.class);
        page.close(); // a no-op now
        assertThatThrownBy(() -> archive.openPage(StoreQuery.builder().build(), 1 << 20)).isInstanceOf(ArchiveClosedException.class);
    }

    @Test
    void anUnknownCursorIsRefusedWhenThePageOpens() {
        try (RocksArchive archive = RocksFixture.open(dir)) {
            ArchiveFixture.writeAll(archive, messages());
            MessageHash unknown = MessageHash.parse("0x" + "ab".repeat(32));
            assertThatThrownBy(() -> archive.openPage(StoreQuery.builder().cursor(unknown).build(), 1 << 20))
                    .isInstanceOf(InvalidQueryException.class);
        }
    }
}
