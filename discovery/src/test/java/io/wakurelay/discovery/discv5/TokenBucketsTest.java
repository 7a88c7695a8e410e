package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The keyed token buckets discv5 limits its sources with, and what a source is. */
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
    }

    @Test
    void aSourceIsItsAddressWhateverThePortOrItsSixtyFourBitPrefix() throws Exception {
        assertThat(SourcePrefix.of(InetAddress.getByName("127.0.0.2")))
                .isEqualTo(SourcePrefix.of(InetAddress.getByName("::ffff:127.0.0.2")))
                .isNotEqualTo(SourcePrefix.of(InetAddress.getByName("127.0.0.3")));
        assertThat(SourcePrefix.of(InetAddress.getByName("2001:db8:1:2::1")))
                .isEqualTo(SourcePrefix.of(InetAddress.getByName("2001:db8:1:2:ffff:ffff:ffff:ffff")))
                .isNotEqualTo(SourcePrefix.of(InetAddress.getByName("2001:db8:1:3::1")));
    }
}
