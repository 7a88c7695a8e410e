package io.wakurelay.p2p.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The project's one token bucket: even refills (discv5), whole periods (nwaku's request limits), one per key. */
class TokenBucketsTest {
    private static final long SECOND = 1_000_000_000L;

    private static int taken(TokenBuckets<String> buckets, String key, int tries, long nowNanos) {
        int taken = 0;
        for (int i = 0; i < tries; i++) {
            taken += buckets.tryAcquire(key, nowNanos) ? 1 : 0;
        }
        return taken;
    }

    @Test
    void aKeyBurstsItsDepthThenGetsTheRate() {
        TokenBuckets<String> buckets = new TokenBuckets<>(50, 100, 16);
        assertThat(taken(buckets, "a", 1_000, 0)).isEqualTo(100);
        assertThat(taken(buckets, "a", 1_000, SECOND / 2)).isEqualTo(25);
        assertThat(taken(buckets, "b", 1_000, SECOND / 2)).as("another key has its own bucket").isEqualTo(100);
        assertThat(taken(buckets, "a", 1_000, 100 * SECOND)).as("never more than the depth").isEqualTo(100);
    }

    @Test
    void theLeastRecentlySeenKeyIsForgottenPastTheCapacity() {
        TokenBuckets<String> buckets = new TokenBuckets<>(1, 1, 2);
        buckets.tryAcquire("a", 0);
        buckets.tryAcquire("b", 0);
        buckets.tryAcquire("a", 0);
        buckets.tryAcquire("c", 0);
        assertThat(buckets.size()).isEqualTo(2);
        assertThat(buckets.tryAcquire("a", 0)).as("a was seen last before c: still empty").isFalse();
        assertThat(buckets.tryAcquire("b", 0)).as("b was forgotten: full again").isTrue();
        assertThatThrownBy(() -> new TokenBuckets<String>(0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBuckets<String>(1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBucketOfWholePeriodsGivesItsVolumeInAPeriodHoweverSpreadThenWaitsForThePeriodToEnd() {
        TokenBuckets<String> buckets = TokenBuckets.perPeriod(30, Duration.ofMinutes(1), 16);
        long start = 5 * SECOND;
        for (int i = 0; i < 30; i++) {
            assertThat(buckets.tryAcquire("peer", start + i * 2 * SECOND)).as("call %d, 2 s after the one before", i + 1)
                    .isTrue();
        }
        assertThat(buckets.tryAcquire("peer", start + 59 * SECOND)).as("the 31st call within the minute").isFalse();
        assertThat(buckets.tryAcquire("other", start + 59 * SECOND)).as("another key has its own bucket").isTrue();
        assertThat(taken(buckets, "peer", 100, start + 60 * SECOND)).as("the whole volume once the minute has passed")
                .isEqualTo(30);
        assertThatThrownBy(() -> TokenBuckets.perPeriod(0, Duration.ofSeconds(1), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TokenBuckets.perPeriod(1, Duration.ZERO, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPeriodBeginsWithTheFirstTokenTakenFromAFullBucket() {
        TokenBucket bucket = TokenBucket.perPeriod(2, Duration.ofSeconds(10), 0);
        assertThat(bucket.tryTake(100 * SECOND)).as("full since it was made, long ago").isTrue();
        assertThat(bucket.tryTake(101 * SECOND)).isTrue();
        assertThat(bucket.tryTake(109 * SECOND)).as("the period began at 100 s, not at 0").isFalse();
        assertThat(bucket.tryTake(110 * SECOND)).isTrue();
    }

    @Test
    void bucketsLeftAloneUntilFullAgainAreForgottenAndComeBackFull() {
        TokenBuckets<String> even = new TokenBuckets<>(1, 2, 100);
        TokenBuckets<String> whole = TokenBuckets.perPeriod(1, Duration.ofSeconds(1), 100);
        for (int i = 0; i < 50; i++) {
            even.tryAcquire("k" + i, 0);
            whole.tryAcquire("k" + i, 0);
        }
        even.tryAcquire("k0", SECOND);
        assertThat(even.size()).as("not yet full again: kept").isEqualTo(50);
        assertThat(even.tryAcquire("new", 5 * SECOND / 2)).isTrue();
        assertThat(even.size()).as("full after 2 s alone: forgotten, but k0, used 1.5 s ago").isEqualTo(2);
        assertThat(whole.tryAcquire("new", SECOND)).isTrue();
        assertThat(whole.size()).as("a whole period alone: forgotten").isEqualTo(1);
        assertThat(whole.tryAcquire("k1", SECOND)).as("a forgotten key is full again").isTrue();
    }

    @Test
    void anEvenBucketNeedsARateAndADepth() {
        assertThatThrownBy(() -> new TokenBucket(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(1, 0.5, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new TokenBucket(4, 2, 0).fullAfterNanos()).isEqualTo(SECOND / 2);
        assertThat(TokenBucket.perPeriod(3, Duration.ofSeconds(3), 0).fullAfterNanos()).isEqualTo(3 * SECOND);
    }
}
