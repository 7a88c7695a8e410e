package io.wakurelay.loadgen;

import io.wakurelay.protocol.PayloadMix;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadTest {
    private final Workload workload = new Workload(42, PayloadMix.defaultMix(), 1000, 100, Workload.DEFAULT_PUBSUB_TOPIC,
            Workload.DEFAULT_CONTENT_TOPIC);

    @Test
    void sameSeedAndMixGiveTheSameSizesAndPayloads() {
        Workload again = new Workload(42, PayloadMix.defaultMix(), 1000, 100, Workload.DEFAULT_PUBSUB_TOPIC, Workload.DEFAULT_CONTENT_TOPIC);
        assertThat(again.sizes()).isEqualTo(workload.sizes());
        int[] sizes = workload.sizes();
        for (int i : new int[]{0, 1, 99, 100, 1099}) {
            assertThat(again.payload(i, sizes[i])).isEqualTo(workload.payload(i, sizes[i]));
        }
    }

    @Test
    void anotherSeedGivesAnotherSequence() {
        Workload other = new Workload(43, PayloadMix.defaultMix(), 1000, 100, Workload.DEFAULT_PUBSUB_TOPIC, Workload.DEFAULT_CONTENT_TOPIC);
        assertThat(other.sizes()).isNotEqualTo(workload.sizes());
        assertThat(other.payload(5, 100)).isNotEqualTo(workload.payload(5, 100));
    }

    @Test
    void everyPayloadStartsWithItsIndexAndHasItsSize() {
        int[] sizes = workload.sizes();
        assertThat(sizes).hasSize(1100);
        for (int i = 0; i < sizes.length; i += 137) {
            ByteBuffer p = workload.payload(i, sizes[i]);
            assertThat(p.remaining()).isEqualTo(sizes[i]);
            assertThat(Workload.indexOf(p)).isEqualTo(i);
        }
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new Workload(1, PayloadMix.defaultMix(), 0, 0, "/waku/2/rs/0/0", "/a/1/b/c"))
                .hasMessageContaining("count");
        assertThatThrownBy(() -> new Workload(1, PayloadMix.parse("2:100"), 10, 0, "/waku/2/rs/0/0", "/a/1/b/c"))
                .hasMessageContaining("4 bytes");
    }
}
