package io.wakurelay.protocol;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AutoShardingTest {
    /**
     * The shards js-waku computes: {@code contentTopicToShardIndex(topic, n)} of @waku/utils 0.0.x as installed by
     * interop/light (run with node on 4 December 2026).
     */
    @ParameterizedTest
    @CsvSource({
            "/toychat/2/huilong/proto, 8, 3", "/myapp/1/latest/proto, 8, 0", "/waku/2/content/test.js, 8, 1",
            "/app/1/metrics/proto, 8, 4", "/status/1/a/rlp, 8, 5", "/waku/2/default-content/proto, 8, 1",
            "/toychat/2/huilong/proto, 3, 1", "/myapp/1/latest/proto, 3, 2", "/status/1/a/rlp, 3, 1",
            "/toychat/2/huilong/proto, 1024, 1011", "/myapp/1/latest/proto, 1024, 296", "/waku/2/content/test.js, 1024, 921",
            "/app/1/metrics/proto, 1024, 148", "/status/1/a/rlp, 1024, 573", "/toychat/2/huilong/proto, 1, 0"})
    void aContentTopicLandsOnTheShardJsWakuComputes(String topic, int shards, int expected) {
        assertThat(new AutoSharding(1, shards).shard(topic)).isEqualTo(expected);
    }

    @Test
    void generationZeroIsTheSameTopicAndOtherGenerationsHaveNoShard() {
        AutoSharding sharding = new AutoSharding(1, 8);

        assertThat(sharding.pubsubTopic("/0/toychat/2/huilong/proto")).isEqualTo("/waku/2/rs/1/3");
        assertThat(sharding.pubsubTopic("/toychat/2/huilong/proto")).isEqualTo("/waku/2/rs/1/3");
        assertThatThrownBy(() -> sharding.shard("/1/toychat/2/huilong/proto")).isInstanceOf(ProtocolViolation.class)
                .hasMessageContaining("generation 0");
        assertThatThrownBy(() -> sharding.shard("chat")).isInstanceOf(ProtocolViolation.class);
    }

    @Test
    void theClusterAndTheNumberOfShardsAreBounded() {
        assertThatThrownBy(() -> new AutoSharding(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AutoSharding(0, 1025)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AutoSharding(65536, 8)).isInstanceOf(IllegalArgumentException.class);
    }
}
