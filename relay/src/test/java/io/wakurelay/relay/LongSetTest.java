package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LongSetTest {
    @Test
    void holdsEachKeyOnceZeroAndNegativeKeysIncluded() {
        LongSet set = new LongSet(4);
        for (long key : new long[]{0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            assertThat(set.add(key)).isTrue();
            assertThat(set.add(key)).as("again").isFalse();
            assertThat(set.contains(key)).isTrue();
        }
        assertThat(set.size()).isEqualTo(5);
        assertThat(set.contains(2)).isFalse();
    }

    @Test
    void anEmptySetHasNoArrayAndAFullOneAtMostFourSlotsPerKey() {
        LongSet set = new LongSet(16);
        assertThat(set.arrayBytes()).isZero();
        for (long key = 1; key <= 10_000; key++) {
            set.add(key * 0x100000001L);
        }
        for (long key = 1; key <= 10_000; key++) {
            assertThat(set.contains(key * 0x100000001L)).isTrue();
        }
        assertThat(set.size()).isEqualTo(10_000);
        // at most half full, and it doubles: between 2 and 4 slots of 8 bytes per key
        assertThat(set.arrayBytes()).isBetween(2L * 8 * 10_000, 4L * 8 * 10_000);
    }

    @Test
    void theInitialSizeMustBeAPowerOfTwo() {
        assertThatThrownBy(() -> new LongSet(12)).isInstanceOf(IllegalArgumentException.class);
    }
}
