package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class SeenCacheTest {
    private static final long SECOND = 1_000_000_000L;

    private static MessageId id(long n) {
        return new MessageId(ByteBuffer.allocate(32).putLong(n).putLong(~n).array());
    }

    @Test
    void anIdIsADuplicateWithinTheTtlAndNewAfterIt() {
        SeenCache cache = new SeenCache(10_000, Duration.ofMinutes(2), 0);

        assertThat(cache.markSeen(id(1), 0)).isTrue();
        assertThat(cache.markSeen(id(1), 60 * SECOND)).isFalse();
        assertThat(cache.markSeen(id(1), 121 * SECOND)).isTrue();
    }

    @Test
    void aForgottenIdIsNewAgainAndTheOthersStaySeen() {
        SeenCache cache = new SeenCache(10_000, Duration.ofMinutes(2), 0);
        cache.markSeen(id(1), 0);
        cache.markSeen(id(2), 30 * SECOND);

        cache.forget(id(1));
        cache.forget(id(3)); // never seen: nothing happens

        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.contains(id(2), 31 * SECOND)).isTrue();
        assertThat(cache.markSeen(id(1), 31 * SECOND)).isTrue();
    }

    @Test
    void aDuplicateDoesNotExtendTheTtl() {
        SeenCache cache = new SeenCache(10_000, Duration.ofMinutes(2), 0);
        cache.markSeen(id(7), 0);
        cache.markSeen(id(7), 100 * SECOND);

        assertThat(cache.contains(id(7), 125 * SECOND)).isFalse();
    }

    @Test
    void pastItsCapacityTheOldestIdsGoFirstAndAreCounted() {
        SeenCache cache = new SeenCache(1024, Duration.ofMinutes(2), 0);
        for (int i = 0; i < 1024; i++) {
            cache.markSeen(id(i), i * SECOND / 100);
        }
        long later = 20 * SECOND;
        cache.markSeen(id(5000), later);

        assertThat(cache.evictedEarly()).isEqualTo(1);
        assertThat(cache.contains(id(0), later)).as("oldest bracket dropped").isFalse();
        assertThat(cache.contains(id(5000), later)).isTrue();
        assertThat(cache.size()).isLessThanOrEqualTo(1024);
    }

    @Test
    void holdsHundredsOfThousandsOfIdsWithoutFalseDuplicates() {
        SeenCache cache = new SeenCache(1_000_000, Duration.ofMinutes(2), 0);
        for (int i = 0; i < 300_000; i++) {
            assertThat(cache.markSeen(id(i), i * 1000L)).isTrue();
        }
        for (int i = 0; i < 300_000; i += 997) {
            assertThat(cache.contains(id(i), 300_000_000L)).isTrue();
        }
        assertThat(cache.size()).isEqualTo(300_000);
    }

    @Test
    void aLongIdleTimeExpiresEverything() {
        SeenCache cache = new SeenCache(10_000, Duration.ofMinutes(2), 0);
        cache.markSeen(id(1), 0);
        cache.markSeen(id(2), SECOND);

        assertThat(cache.contains(id(2), 3600 * SECOND)).isFalse();
        assertThat(cache.size()).isZero();
    }
}
