package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreQueryValidationTest {
    private static final String PUBSUB = "/waku/2/rs/0/0";
    private static final MessageHash HASH = MessageHash.parse("0x" + "ab".repeat(32));

    @Test
    void defaultsAreStoreV3s() {
        StoreQuery q = StoreQuery.builder().build();
        assertThat(q.pageSize()).isEqualTo(20);
        assertThat(q.ascending()).isTrue();
        assertThat(q.includeData()).isFalse();
        assertThat(q.kind()).isEqualTo(StoreQuery.Kind.TIME);
        assertThat(StoreQuery.builder().pubsubTopic(PUBSUB).build().kind()).isEqualTo(StoreQuery.Kind.TOPICS);
        assertThat(StoreQuery.builder().hashes(HASH).build().kind()).isEqualTo(StoreQuery.Kind.HASHES);
    }

    @Test
    void pageSizeZeroMeansTheDefaultAndLargeOnesAreClampedAsNwakuDoes() {
        assertThat(StoreQuery.builder().pageSize(0).build().pageSize()).isEqualTo(20);
        assertThat(StoreQuery.builder().pageSize(100).build().pageSize()).isEqualTo(100);
        assertThat(StoreQuery.builder().pageSize(5000).build().pageSize()).isEqualTo(100);
        assertThatThrownBy(() -> StoreQuery.builder().pageSize(-1).build())
                .isInstanceOf(InvalidQueryException.class).hasMessage("pageSize must not be negative, was -1");
    }

    /** nwaku's archive answers content topics without a pubsub topic (on every pubsub topic); so does ours. */
    @Test
    void contentTopicsWithoutAPubsubTopicAreATopicsQueryOnEveryPubsubTopic() {
        StoreQuery query = StoreQuery.builder().contentTopics("/app/1/chat/proto").build();
        assertThat(query.kind()).isEqualTo(StoreQuery.Kind.TOPICS);
        assertThat(query.pubsubTopic()).isNull();
    }

    @Test
    void atMostTenContentTopicsAndAHundredHashes() {
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            topics.add("/app/1/t" + i + "/proto");
        }
        assertThatThrownBy(() -> StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics(topics).build())
                .isInstanceOf(InvalidQueryException.class).hasMessage("at most 10 contentTopics per query, got 11");
        assertThat(StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics(topics.subList(0, 10)).build().contentTopics()).hasSize(10);

        List<MessageHash> hashes = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            byte[] b = new byte[32];
            b[0] = (byte) i;
            b[1] = (byte) (i >> 8);
            hashes.add(MessageHash.of(b));
        }
        assertThatThrownBy(() -> StoreQuery.builder().hashes(hashes).build())
                .isInstanceOf(InvalidQueryException.class).hasMessage("at most 100 hashes per query, got 101");
    }

    /** As nwaku's drivers: topics given with hashes narrow them; the query is by hashes. */
    @Test
    void hashesWithTopicsAreAQueryByHashes() {
        StoreQuery query = StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics("/a/1/b/c").hashes(HASH).build();
        assertThat(query.kind()).isEqualTo(StoreQuery.Kind.HASHES);
        assertThat(query.pubsubTopic()).isEqualTo(PUBSUB);
    }

    @Test
    void startMustNotBeAfterEnd() {
        assertThatThrownBy(() -> StoreQuery.builder().startTime(10L).endTime(9L).build())
                .isInstanceOf(InvalidQueryException.class).hasMessage("startTime 10 is after endTime 9");
        assertThat(StoreQuery.builder().startTime(10L).endTime(10L).build().startTime()).isEqualTo(10L);
    }

    @Test
    void malformedTopicsAreRefusedWithTheProtocolsReason() {
        assertThatThrownBy(() -> StoreQuery.builder().pubsubTopic("/waku/2/rs/0/0\0x").build())
                .isInstanceOf(InvalidQueryException.class).hasMessageStartingWith("pubsubTopic: ");
        assertThatThrownBy(() -> StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics("not\0a-topic").build())
                .isInstanceOf(InvalidQueryException.class).hasMessageStartingWith("contentTopics: ");
    }

    @Test
    void duplicatesAreIgnoredAndNullsRefused() {
        StoreQuery q = StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics("/a/1/b/c", "/a/1/b/c").build();
        assertThat(q.contentTopics()).containsExactly("/a/1/b/c");
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> StoreQuery.builder().pubsubTopic(PUBSUB).contentTopics(withNull).build())
                .isInstanceOf(InvalidQueryException.class).hasMessage("contentTopics must not contain null");
    }

    @Test
    void anEmptyPubsubTopicMeansNone() {
        assertThat(StoreQuery.builder().pubsubTopic("").build().pubsubTopic()).isNull();
    }
}
