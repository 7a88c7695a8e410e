package io.wakurelay.archive.contract;

import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RetentionRun;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.WallClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.hashes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Retention, whatever the backend: what each policy deletes, what it keeps, and what the Store then finds. */
public abstract class RetentionContract {

    /** A new empty archive of the backend under test with {@code policy}. */
    protected abstract MessageArchive open(RetentionPolicy policy);

    /** The archive's message count, counted now. */
    protected abstract long count(MessageArchive archive);

    @Test
    void timeRetentionDeletesTheMessagesOlderThanItsAgeAndKeepsTheRecentOnes() {
        try (MessageArchive archive = open(new RetentionPolicy.Time(Duration.ofHours(1)))) {
            long now = WallClock.nowNanos();
            List<Envelope> envelopes = new ArrayList<>(TestEnvelopes.sequence(0, 150, 40)); // 2023: long expired
            List<MessageHash> recent = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                Envelope e = TestEnvelopes.envelope(1_000 + i, 40, now - Duration.ofMinutes(10).toNanos() + i);
                recent.add(e.hash());
                envelopes.add(e);
            }
            ArchiveFixture.writeAll(archive, envelopes);
            RetentionRun run = archive.applyRetention();
            assertThat(run.deletedMessages()).isEqualTo(150);
            assertThat(hashes(allPages(archive, StoreQuery.builder().pageSize(100).build())))
                    .containsExactlyInAnyOrderElementsOf(recent);
            assertThat(count(archive)).isEqualTo(30);
            assertThat(archive.applyRetention().deletedMessages()).isZero();
        }
    }

    @Test
    void capacityRetentionKeepsTheNewestMessages() {
        try (MessageArchive archive = open(new RetentionPolicy.Capacity(100))) {
            List<Envelope> envelopes = TestEnvelopes.sequence(0, 250, 30);
            List<MessageHash> newest = envelopes.stream().sorted(Comparator.comparingLong(Envelope::indexTimestamp).reversed())
                    .limit(100).map(Envelope::hash).toList();
            ArchiveFixture.writeAll(archive, envelopes);
            assertThat(archive.applyRetention().deletedMessages()).isEqualTo(150);
            assertThat(hashes(allPages(archive, StoreQuery.builder().pageSize(100).build())))
                    .containsExactlyInAnyOrderElementsOf(newest);
            assertThat(count(archive)).isEqualTo(100);
        }
    }

    @Test
    void aCursorRetentionRemovedIsAnInvalidQuery() {
        try (MessageArchive archive = open(new RetentionPolicy.Capacity(10))) {
            List<Envelope> envelopes = TestEnvelopes.sequence(0, 30, 30);
            MessageHash oldest = envelopes.get(0).hash();
            ArchiveFixture.writeAll(archive, envelopes);
            archive.applyRetention();
            assertThatThrownBy(() -> archive.query(StoreQuery.builder().cursor(oldest).build()))
                    .isInstanceOf(InvalidQueryException.class).hasMessageContaining("is not a stored message");
        }
    }

    @Test
    void noRetentionDeletesNothing() {
        try (MessageArchive archive = open(new RetentionPolicy.None())) {
            ArchiveFixture.writeAll(archive, TestEnvelopes.sequence(0, 20, 30));
            assertThat(archive.applyRetention().deletedMessages()).isZero();
            assertThat(count(archive)).isEqualTo(20);
        }
    }
}
