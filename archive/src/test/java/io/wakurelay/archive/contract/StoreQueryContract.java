package io.wakurelay.archive.contract;

import io.netty.buffer.ByteBufUtil;
import io.wakurelay.archive.ArchiveFixture;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.TestEnvelopes;
import io.wakurelay.archive.UnknownCursorException;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.wakurelay.archive.ArchiveFixture.allPages;
import static io.wakurelay.archive.ArchiveFixture.hashes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Store v3 semantics over a fixed data set: two pubsub topics (one a string prefix of the other), three content
 * topics, timestamps with ties (so the hash breaks them), and each result compared with the same selection
 * made in memory. Every backend passes it: its subclasses open the archive.
 */
public abstract class StoreQueryContract {
    private static final String SHARD_1 = "/waku/2/rs/0/1";
    private static final String SHARD_10 = "/waku/2/rs/0/10";
    private static final List<String> CONTENT = List.of("/app/1/chat/proto", "/app/1/chat/protobuf", "/other/1/x/json");

    /** What was written, for the in-memory answers. */
    private record Written(MessageHash hash, String pubsub, String content, long timestamp, byte[] bytes) {
    }

    private MessageArchive archive;
    private final List<Written> written = new ArrayList<>();

    @BeforeEach
    void writeDataSet() {
        archive = open();
        List<Envelope> envelopes = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            String pubsub = i % 4 == 0 ? SHARD_10 : SHARD_1;
            String content = CONTENT.get(i % 3);
            long timestamp = TestEnvelopes.BASE_TIME + (i / 3) * 1_000L; // three messages per timestamp
            Envelope e = TestEnvelopes.envelope(pubsub, content, i, 20 + i, timestamp);
            written.add(new Written(e.hash(), pubsub, content, timestamp, ByteBufUtil.getBytes(e.messageBytes())));
            envelopes.add(e);
        }
        ArchiveFixture.writeAll(archive, envelopes);
    }

    @AfterEach
    void close() {
        archive.close();
    }

    /** A new empty archive of the backend under test, retention none. */
    protected abstract MessageArchive open();

    private List<MessageHash> expected(Predicate<Written> filter, boolean ascending) {
        Comparator<Written> order = Comparator.comparingLong(Written::timestamp).thenComparing(Written::hash);
        return written.stream().filter(filter).sorted(ascending ? order : order.reversed()).map(Written::hash).toList();
    }

    @Test
    void aPubsubTopicAloneReturnsAllItsMessagesAndNoneOfATopicItPrefixes() {
        for (boolean ascending : new boolean[]{true, false}) {
            StoreQuery query = StoreQuery.builder().pubsubTopic(SHARD_1).ascending(ascending).pageSize(7).build();
            assertThat(hashes(allPages(archive, query))).containsExactlyElementsOf(expected(w -> w.pubsub().equals(SHARD_1), ascending));
        }
    }

    @Test
    void aQueryThatMatchesNothingAnswersAnEmptyPageWithOrWithoutData() {
        for (boolean data : new boolean[]{true, false}) {
            StoreResponse r = archive.query(StoreQuery.builder().pubsubTopic(SHARD_1).contentTopics("/none/1/x/proto").includeData(data).build());
            assertThat(r.messages()).isEmpty();
            assertThat(r.paginationCursor()).isNull();
        }
    }

    @Test
    void severalContentTopicsAreMergedInTimestampThenHashOrder() {
        for (boolean ascending : new boolean[]{true, false}) {
            StoreQuery query = StoreQuery.builder().pubsubTopic(SHARD_1).contentTopics(CONTENT.get(0), CONTENT.get(1))
                    .ascending(ascending).pageSize(9).build();
            assertThat(hashes(allPages(archive, query))).containsExactlyElementsOf(expected(
                    w -> w.pubsub().equals(SHARD_1) && (w.content().equals(CONTENT.get(0)) || w.content().equals(CONTENT.get(1))), ascending));
        }
    }

    /** As nwaku's archive answers it: content topics without a pubsub topic match on every pubsub topic. */
    @Test
    void contentTopicsWithoutAPubsubTopicMatchOnEveryPubsubTopicInOrder() {
        for (boolean ascending : new boolean[]{true, false}) {
            StoreQuery query = StoreQuery.builder().contentTopics(CONTENT.get(0), CONTENT.get(2)).ascending(ascending).pageSize(7)
                    .includeData(true).build();
            List<StoredMessage> found = allPages(archive, query);
            assertThat(hashes(found)).containsExactlyElementsOf(expected(
                    w -> w.content().equals(CONTENT.get(0)) || w.content().equals(CONTENT.get(2)), ascending));
            Map<MessageHash, String> pubsubOf = new HashMap<>();
            written.forEach(w -> pubsubOf.put(w.hash(), w.pubsub()));
            assertThat(found).allSatisfy(m -> assertThat(m.pubsubTopic()).isEqualTo(pubsubOf.get(m.hash())));
            assertThat(found).extracting(StoredMessage::pubsubTopic).contains(SHARD_1, SHARD_10);
        }
        assertThat(archive.query(StoreQuery.builder().contentTopics("Hello World!").build()).messages()).isEmpty();
    }

    /** As nwaku's drivers, which join every filter: topics given with hashes leave the hashes of messages on them. */
    @Test
    void topicsGivenWithHashesNarrowThem() {
        List<Written> some = written.subList(0, 24);
        List<MessageHash> asked = some.stream().map(Written::hash).toList();
        StoreQuery byPubsub = StoreQuery.builder().hashes(asked).pubsubTopic(SHARD_10).pageSize(100).build();
        assertThat(hashes(allPages(archive, byPubsub))).containsExactlyElementsOf(expected(
                w -> asked.contains(w.hash()) && w.pubsub().equals(SHARD_10), true));
        StoreQuery byBoth = StoreQuery.builder().hashes(asked).pubsubTopic(SHARD_1).contentTopics(CONTENT.get(1)).pageSize(100).build();
        assertThat(hashes(allPages(archive, byBoth))).isNotEmpty().containsExactlyElementsOf(expected(
                w -> asked.contains(w.hash()) && w.pubsub().equals(SHARD_1) && w.content().equals(CONTENT.get(1)), true));
        StoreQuery byContent = StoreQuery.builder().hashes(asked).contentTopics(CONTENT.get(2)).pageSize(100).build();
        assertThat(hashes(allPages(archive, byContent))).isNotEmpty().containsExactlyElementsOf(expected(
                w -> asked.contains(w.hash()) && w.content().equals(CONTENT.get(2)), true));
    }

    @Test
    void aContentTopicThatPrefixesAnotherMatchesOnlyItself() {
        StoreQuery query = StoreQuery.builder().pubsubTopic(SHARD_1).contentTopics(CONTENT.get(0)).pageSize(100).build();
        assertThat(hashes(allPages(archive, query))).containsExactlyElementsOf(expected(
                w -> w.pubsub().equals(SHARD_1) && w.content().equals(CONTENT.get(0)), true));
    }

    @Test
    void startAndEndTimeAreBothInclusive() {
        long start = TestEnvelopes.BASE_TIME + 10_000;
        long end = TestEnvelopes.BASE_TIME + 20_000;
        for (boolean ascending : new boolean[]{true, false}) {
            StoreQuery query = StoreQuery.builder().pubsubTopic(SHARD_1).contentTopics(CONTENT).startTime(start).endTime(end)
                    .ascending(ascending).pageSize(4).build();
            List<MessageHash> expected = expected(w -> w.pubsub().equals(SHARD_1) && w.timestamp() >= start && w.timestamp() <= end, ascending);
            assertThat(hashes(allPages(archive, query))).containsExactlyElementsOf(expected);
            assertThat(expected).isNotEmpty();
        }
        StoreQuery exact = StoreQuery.builder().startTime(start).endTime(start).build();
        assertThat(hashes(archive.query(exact).messages())).containsExactlyElementsOf(expected(w -> w.timestamp() == start, true));
    }

    @Test
    void neitherTopicsNorHashesPagesThroughEverythingByTime() {
        for (boolean ascending : new boolean[]{true, false}) {
            StoreQuery query = StoreQuery.builder().ascending(ascending).pageSize(100).build();
            assertThat(hashes(allPages(archive, query))).containsExactlyElementsOf(expected(w -> true, ascending));
        }
    }

    @Test
    void hashesReturnTheStoredOnesInOrderAndIgnoreUnknownOnes() {
        List<MessageHash> asked = new ArrayList<>();
        for (int i = 0; i < written.size(); i += 7) {
            asked.add(written.get(i).hash());
        }
        asked.add(MessageHash.parse("0x" + "00".repeat(31) + "01"));
        for (boolean ascending : new boolean[]{true, false}) {
            StoreQuery query = StoreQuery.builder().hashes(asked).ascending(ascending).pageSize(5).includeData(true).build();
            List<StoredMessage> found = allPages(archive, query);
            assertThat(hashes(found)).containsExactlyElementsOf(expected(w -> asked.contains(w.hash()), ascending));
            assertThat(found).allSatisfy(m -> assertThat(m.pubsubTopic()).isIn(SHARD_1, SHARD_10));
        }
    }

    @Test
    void withDataTheMessageIsTheStoredBytesAndWithoutItOnlyHashAndTimestamp() {
        Map<MessageHash, Written> byHash = new HashMap<>();
        written.forEach(w -> byHash.put(w.hash(), w));
        StoreQuery withData = StoreQuery.builder().pubsubTopic(SHARD_10).includeData(true).pageSize(100).build();
        for (StoredMessage m : allPages(archive, withData)) {
            Written w = byHash.get(m.hash());
            // PostgreSQL rebuilds the message from nwaku's columns; these messages have no field it does not keep
            assertThat(m.message().toByteArray()).isEqualTo(w.bytes());
            assertThat(m.pubsubTopic()).isEqualTo(SHARD_10);
            assertThat(m.timestamp()).isEqualTo(w.timestamp());
        }
        for (StoredMessage m : archive.query(StoreQuery.builder().pubsubTopic(SHARD_10).build()).messages()) {
            assertThat(m.message()).isNull();
            assertThat(m.pubsubTopic()).isNull();
            assertThat(m.timestamp()).isEqualTo(byHash.get(m.hash()).timestamp());
        }
    }

    @Test
    void backwardPagesAreChronologicalAndTheCursorIsTheOldestOfThePage() {
        StoreResponse newest = archive.query(StoreQuery.builder().ascending(false).pageSize(5).build());
        List<MessageHash> expected = expected(w -> true, false).subList(0, 5);
        List<MessageHash> chronological = new ArrayList<>(expected);
        java.util.Collections.reverse(chronological);
        assertThat(hashes(newest.messages())).containsExactlyElementsOf(chronological);
        assertThat(newest.paginationCursor()).isEqualTo(expected.get(4));
    }

    @Test
    void thereIsACursorOnlyWhenMoreResultsExist() {
        StoreQuery exactlyOnePage = StoreQuery.builder().pubsubTopic(SHARD_10).contentTopics(CONTENT.get(0)).pageSize(20).build();
        List<MessageHash> all = expected(w -> w.pubsub().equals(SHARD_10) && w.content().equals(CONTENT.get(0)), true);
        assertThat(all).hasSize(20);
        StoreResponse page = archive.query(exactlyOnePage);
        assertThat(page.messages()).hasSize(20);
        assertThat(page.paginationCursor()).isNull();

        StoreResponse first = archive.query(exactlyOnePage.toBuilder().pageSize(19).build());
        assertThat(first.paginationCursor()).isEqualTo(all.get(18));
        assertThat(archive.query(StoreQuery.builder().pubsubTopic("/waku/2/rs/9/9").build()).messages()).isEmpty();
    }

    @Test
    void anUnknownCursorIsAnInvalidQuery() {
        MessageHash unknown = MessageHash.parse("0x" + "12".repeat(32));
        assertThatThrownBy(() -> archive.query(StoreQuery.builder().cursor(unknown).build()))
                .isInstanceOf(UnknownCursorException.class)
                .hasMessage("cursor " + unknown.toHex() + " is not a stored message (unknown, or removed by retention)");
    }

    @Test
    void aCursorFromAnotherTopicStillMarksAPositionInTime() {
        Written other = written.stream().filter(w -> w.pubsub().equals(SHARD_10)).toList().get(10);
        StoreQuery query = StoreQuery.builder().pubsubTopic(SHARD_1).cursor(other.hash()).pageSize(100).build();
        Comparator<Written> order = Comparator.comparingLong(Written::timestamp).thenComparing(Written::hash);
        assertThat(hashes(allPages(archive, query))).containsExactlyElementsOf(expected(
                w -> w.pubsub().equals(SHARD_1) && order.compare(w, other) > 0, true));
    }
}
