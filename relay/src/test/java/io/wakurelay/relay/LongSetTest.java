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
    void aRemovedKeyIsGoneAndEveryOtherStaysReachableHoweverTheyCollided() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        LongSet set = new LongSet(8);
        java.util.Set<Long> expected = new java.util.HashSet<>();
        for (int round = 0; round < 20_000; round++) {
            long key = random.nextInt(2_000) - 1_000; // few keys: long probe runs, and 0 among them
            if (random.nextBoolean()) {
                assertThat(set.add(key)).isEqualTo(expected.add(key));
            } else {
                assertThat(set.remove(key)).isEqualTo(expected.remove(key));
            }
        }
        assertThat(set.size()).isEqualTo(expected.size());
        for (long key = -1_000; key < 1_000; key++) {
            assertThat(set.contains(key)).as("key %d", key).isEqualTo(expected.contains(key));
        }
    }

    @Test
    void theInitialSizeMustBeAPowerOfTwo() {
        assertThatThrownBy(() -> new LongSet(12)).isInstanceOf(IllegalArgumentException.class);
    }
}
