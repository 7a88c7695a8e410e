package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBucketTest {
    private final AtomicLong now = new AtomicLong(1_000);

    private void advance(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void holdsOneSecondOfTokensAndRefillsAtItsRate() {
        TokenBucket bucket = new TokenBucket(10, now::get);

        for (int i = 0; i < 10; i++) {
            assertThat(bucket.tryTake()).as("burst token %d", i).isTrue();
        }
        assertThat(bucket.tryTake()).as("the eleventh within the same instant").isFalse();
        advance(100);
        assertThat(bucket.tryTake()).as("one token back after a tenth of a second").isTrue();
        assertThat(bucket.tryTake()).isFalse();
        advance(60_000);
        for (int i = 0; i < 10; i++) {
            assertThat(bucket.tryTake()).isTrue();
        }
        assertThat(bucket.tryTake()).as("idle time does not bank more than a second").isFalse();
    }

    @Test
    void spendingPastZeroLeavesADebtToWaitOut() {
        TokenBucket bucket = new TokenBucket(1000, now::get);

        bucket.spend(1000);
        assertThat(bucket.nanosUntilOutOfDebt()).as("exactly empty is not in debt").isZero();
        bucket.spend(500);
        assertThat(bucket.nanosUntilOutOfDebt()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
        advance(200);
        assertThat(bucket.nanosUntilOutOfDebt()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        advance(300);
        assertThat(bucket.nanosUntilOutOfDebt()).isZero();
    }

    @Test
    void aCostLargerThanTheBucketStillGetsThroughAndTheRateHoldsOverTime() {
        TokenBucket bucket = new TokenBucket(100, now::get);

        bucket.spend(250);
        assertThat(bucket.nanosUntilOutOfDebt()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1500));
        advance(1500);
        assertThat(bucket.nanosUntilOutOfDebt()).isZero();
    }

    @Test
    void aRateMustBePositive() {
        assertThatThrownBy(() -> new TokenBucket(0, now::get)).hasMessageContaining("rate must be positive");
    }
}
