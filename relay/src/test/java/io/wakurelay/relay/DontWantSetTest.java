package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DontWantSetTest {
    @Test
    void anIdIsKeptForItsHeartbeatAndTheTtlMinusOneAfter() {
        DontWantSet set = new DontWantSet(3, 100);
        set.add(42);
        set.heartbeat();
        set.heartbeat();
        assertThat(set.contains(42)).as("two heartbeats later").isTrue();
        set.heartbeat();
        assertThat(set.contains(42)).as("at the third, as go's IDontWantMessageTTL of 3").isFalse();
        assertThat(set.size()).isZero();
    }

    @Test
    void pastItsCapacityTheOldestHeartbeatsIdsGoFirst() {
        DontWantSet set = new DontWantSet(3, 4);
        set.add(1);
        set.add(2);
        set.heartbeat();
        set.add(3);
        set.add(4);
        set.add(5);

        assertThat(set.contains(1)).isFalse();
        assertThat(set.contains(2)).isFalse();
        assertThat(set.contains(3)).isTrue();
        assertThat(set.contains(5)).isTrue();
        assertThat(set.size()).isEqualTo(3);
    }

    @Test
    void aFloodOfIdsWithinOneHeartbeatStaysWithinItsCapacityAndFourLongsPerId() {
        int capacity = 4096;
        DontWantSet set = new DontWantSet(3, capacity);
        for (long id = 1; id <= 1_000_000; id++) {
            set.add(id * 0x9E3779B97F4A7C15L);
            if (id % 10_000 == 0) {
                set.heartbeat();
            }
        }
        assertThat(set.size()).isLessThanOrEqualTo(capacity);
        // each heartbeat's set at most half full after doubling: 32 bytes per id, plus an empty set's first array
        assertThat(set.arrayBytes()).isLessThanOrEqualTo(32L * capacity + 3 * 16 * 8);
    }

    @Test
    void addingAnIdTwiceCountsItOnce() {
        DontWantSet set = new DontWantSet(3, 10);
        set.add(7);
        set.heartbeat();
        set.add(7);
        assertThat(set.size()).isEqualTo(1);
    }
}
