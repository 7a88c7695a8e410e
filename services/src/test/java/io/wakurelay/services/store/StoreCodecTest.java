package io.wakurelay.services.store;

import com.google.protobuf.ByteString;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.ServiceNode;
import io.wakurelay.services.proto.StoreQueryRequest;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StoreCodecTest {
    private static MessageHash hash(int i) {
        byte[] b = new byte[32];
        b[31] = (byte) i;
        b[0] = 1;
        return MessageHash.of(b);
    }

    private static StoreQueryRequest.Builder request() {
        return StoreQueryRequest.newBuilder().setRequestId("r");
    }

    @Test
    void storeV3DefaultsApplyBackwardTwentyWithoutData() {
        StoreQuery q = StoreCodec.toQuery(request().setPubsubTopic(ServiceNode.TOPIC).build());
        assertThat(q.ascending()).isFalse();
        assertThat(q.pageSize()).isEqualTo(20);
        assertThat(q.includeData()).isFalse();
        assertThat(q.kind()).isEqualTo(StoreQuery.Kind.TOPICS);
    }

    @Test
    void pageLimitsAreClampedAsNwakuClampsThemIncludingValuesThatAreNegativeAsJavaLongs() {
        assertThat(StoreCodec.toQuery(request().setPaginationLimit(0).build()).pageSize()).isEqualTo(20);
        assertThat(StoreCodec.toQuery(request().setPaginationLimit(55).build()).pageSize()).isEqualTo(55);
        assertThat(StoreCodec.toQuery(request().setPaginationLimit(101).build()).pageSize()).isEqualTo(100);
        assertThat(StoreCodec.toQuery(request().setPaginationLimit(-1L).build()).pageSize()).as("2^64 - 1").isEqualTo(100);
    }

    @Test
    void everyFieldOfAQueryTravelsToTheRequestAndBack() {
        StoreQuery query = StoreQuery.builder().pubsubTopic(ServiceNode.TOPIC).contentTopics("/a/1/b/proto", "/a/1/c/proto")
                .startTime(5L).endTime(9L).cursor(hash(3)).pageSize(7).ascending(true).includeData(true).build();
        assertThat(StoreCodec.toQuery(StoreCodec.toRequest(query, "id"))).isEqualTo(query);
        StoreQuery byHashes = StoreQuery.builder().hashes(hash(1), hash(2)).pageSize(3).build();
        assertThat(StoreCodec.toQuery(StoreCodec.toRequest(byHashes, "id"))).isEqualTo(byHashes);
    }

    @Test
    void invalidRequestsSayWhatIsWrong() {
        assertThatThrownBy(() -> StoreCodec.toQuery(StoreQueryRequest.newBuilder().build()))
                .isInstanceOf(InvalidQueryException.class).hasMessage("request_id is required");
        assertThatThrownBy(() -> StoreCodec.toQuery(request().setPaginationCursor(ByteString.copyFrom(new byte[5])).build()))
                .hasMessage("pagination_cursor is 5 bytes; a message hash is 32");
        assertThatThrownBy(() -> StoreCodec.toQuery(request().setPubsubTopic("/not/a/topic").build()))
                .hasMessageContaining("pubsubTopic");
    }

    @Test
    void aPubsubTopicSentWithHashesAloneIsNotUsed() {
        StoreQuery q = StoreCodec.toQuery(request().setPubsubTopic(ServiceNode.TOPIC)
                .addMessageHashes(ByteString.copyFrom(hash(1).toByteArray())).build());
        assertThat(q.kind()).isEqualTo(StoreQuery.Kind.HASHES);
        assertThat(q.pubsubTopic()).isNull();
    }

    /** As nwaku's archive, which joins every filter: hashes with content topics are narrowed by the topics. */
    @Test
    void hashesWithContentTopicsAreAQueryByHashesNarrowedByTheTopics() {
        StoreQuery q = StoreCodec.toQuery(request().addMessageHashes(ByteString.copyFrom(hash(1).toByteArray()))
                .setPubsubTopic(ServiceNode.TOPIC).addContentTopics("/a/1/b/proto").build());
        assertThat(q.kind()).isEqualTo(StoreQuery.Kind.HASHES);
        assertThat(q.pubsubTopic()).isEqualTo(ServiceNode.TOPIC);
        assertThat(q.contentTopics()).containsExactly("/a/1/b/proto");
    }
}
