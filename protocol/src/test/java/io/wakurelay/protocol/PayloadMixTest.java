package io.wakurelay.protocol;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PayloadMixTest {
    @Test
    void sameSeedAndMixGiveTheSameSizesInTheSameOrder() {
        PayloadMix mix = PayloadMix.defaultMix();
        assertThat(mix.sizes(42, 1000)).isEqualTo(mix.sizes(42, 1000));
        assertThat(mix.sizes(42, 1000)).isNotEqualTo(mix.sizes(43, 1000));
    }

    @Test
    void seedFortyTwoIsPinned() {
        // pinned so that a change to the sampling is noticed: it would change every published benchmark
        assertThat(PayloadMix.defaultMix().sizes(42, 8)).containsExactly(pinnedFirstEight());
    }

    private static int[] pinnedFirstEight() {
        return new int[]{50000, 50000, 150000, 50000, 150000, 50000, 50000, 10000};
    }

    @Test
    void proportionsFollowThePercents() {
        int[] sizes = PayloadMix.defaultMix().sizes(42, 100_000);
        long small = Arrays.stream(sizes).filter(s -> s == 10_000).count();
        long medium = Arrays.stream(sizes).filter(s -> s == 50_000).count();
        long large = Arrays.stream(sizes).filter(s -> s == 150_000).count();
        assertThat(small).isBetween(24_000L, 26_000L);
        assertThat(medium).isBetween(49_000L, 51_000L);
        assertThat(large).isBetween(24_000L, 26_000L);
    }

    @Test
    void parsesAndPrintsTheSpec() {
        assertThat(PayloadMix.parse(" 10000:25, 50000:50,150000:25 ").spec()).isEqualTo(PayloadMix.DEFAULT_SPEC);
    }

    @Test
    void refusesBadSpecsWithAClearMessage() {
        assertThatThrownBy(() -> PayloadMix.parse("10000:25,50000:50")).hasMessageContaining("add up to 100");
        assertThatThrownBy(() -> PayloadMix.parse("10000")).hasMessageContaining("bytes:percent");
        assertThatThrownBy(() -> PayloadMix.parse("x:100")).hasMessageContaining("bytes:percent");
        assertThatThrownBy(() -> PayloadMix.parse("-1:100")).hasMessageContaining("negative");
    }
}
