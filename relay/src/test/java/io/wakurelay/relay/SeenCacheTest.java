package io.wakurelay.relay;

import io.wakurelay.protocol.MessageHash;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class SeenCacheTest {
    private final AtomicLong clock = new AtomicLong(1_000);

    private static MessageHash hash(int n) {
        byte[] bytes = new byte[MessageHash.LENGTH];
        bytes[0] = (byte) n;
        bytes[1] = (byte) (n >> 8);
        return MessageHash.of(bytes);
    }

    @Test
    void aHashSeenWithinTheTtlIsADuplicate() {
        SeenCache cache = new SeenCache(10, Duration.ofSeconds(120), clock::get);

        assertThat(cache.markSeen(hash(1))).isTrue();
        clock.addAndGet(Duration.ofSeconds(119).toNanos());
        assertThat(cache.markSeen(hash(1))).isFalse();
    }

    @Test
    void aHashIsForgottenWhenItsTtlHasPassedSinceItWasFirstSeen() {
        SeenCache cache = new SeenCache(10, Duration.ofSeconds(120), clock::get);
        cache.markSeen(hash(1));
        clock.addAndGet(Duration.ofSeconds(60).toNanos());
        cache.markSeen(hash(2));
        cache.markSeen(hash(1)); // a duplicate does not extend the first sighting

        clock.addAndGet(Duration.ofSeconds(60).toNanos());

        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.markSeen(hash(1))).isTrue();
        assertThat(cache.markSeen(hash(2))).isFalse();
    }

    @Test
    void theOldestHashMakesRoomWhenTheCacheIsFull() {
        SeenCache cache = new SeenCache(3, Duration.ofSeconds(120), clock::get);
        for (int i = 0; i < 4; i++) {
            cache.markSeen(hash(i));
        }

        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.evictedBeforeExpiry()).isEqualTo(1);
        assertThat(cache.markSeen(hash(3))).isFalse();
        assertThat(cache.markSeen(hash(0))).as("the oldest was forgotten").isTrue();
    }

    @Test
    void aForgottenHashIsNewAgain() {
        SeenCache cache = new SeenCache(3, Duration.ofSeconds(120), clock::get);
        cache.markSeen(hash(1));

        cache.forget(hash(1));

        assertThat(cache.markSeen(hash(1))).isTrue();
    }
}
