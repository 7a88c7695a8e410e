package io.wakurelay.protocol;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyBucketsTest {
    @Test
    void boundsFollowTheOneTwoAndAHalfFiveSeriesBetweenTheLimits() {
        assertThat(LatencyBuckets.between(Duration.ofMillis(1), Duration.ofMillis(100))).containsExactly(
                Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5),
                Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void aRangeOfFourDecadesHasThirteenBounds() {
        Duration[] bounds = LatencyBuckets.between(Duration.ofNanos(10_000), Duration.ofMillis(100));
        assertThat(bounds).hasSize(13).startsWith(Duration.ofNanos(10_000)).endsWith(Duration.ofMillis(100));
    }

    @Test
    void anEmptyOrInvertedRangeIsRefused() {
        assertThatThrownBy(() -> LatencyBuckets.between(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LatencyBuckets.between(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
