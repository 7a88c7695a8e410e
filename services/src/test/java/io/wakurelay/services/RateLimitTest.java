package io.wakurelay.services;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitTest {
    private static PeerId peer() {
        return PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
    }

    @Test
    void ratesAreWrittenAsNwakuWritesThem() {
        assertThat(RateLimit.parse("30/1s")).isEqualTo(RateLimit.of(30, Duration.ofSeconds(1)));
        assertThat(RateLimit.parse("30/1m")).isEqualTo(RateLimit.of(30, Duration.ofMinutes(1)));
        assertThat(RateLimit.parse("5/500ms")).isEqualTo(RateLimit.of(5, Duration.ofMillis(500)));
        assertThat(RateLimit.parse("100/2h")).isEqualTo(RateLimit.of(100, Duration.ofHours(2)));
        assertThat(RateLimit.parse("none")).isEqualTo(RateLimit.UNLIMITED);
        for (String text : new String[]{"30/1s", "30/1m", "5/500ms", "100/2h", "none"}) {
            assertThat(RateLimit.parse(text)).hasToString(text);
        }
        assertThatThrownBy(() -> RateLimit.parse("30 per second")).hasMessageContaining("<volume>/<period>");
        assertThatThrownBy(() -> RateLimit.of(0, Duration.ofSeconds(1))).hasMessageContaining("both positive");
    }

    @Test
    void aPeerMayMakeTheVolumeInAPeriodAndThenNoneUntilThePeriodHasPassedAsInNwaku() {
        AtomicLong clock = new AtomicLong();
        PeerRateLimiter limiter = new PeerRateLimiter(RateLimit.of(3, Duration.ofSeconds(3)), clock::get);
        PeerId a = peer();
        PeerId b = peer();
        assertThat(limiter.tryAcquire(a)).isTrue();
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(limiter.tryAcquire(a)).isTrue();
        assertThat(limiter.tryAcquire(a)).isTrue();
        assertThat(limiter.tryAcquire(a)).isFalse();
        assertThat(limiter.tryAcquire(b)).as("peers have buckets of their own").isTrue();

        clock.addAndGet(Duration.ofMillis(1999).toNanos());
        assertThat(limiter.tryAcquire(a)).as("no token comes back before the period is over").isFalse();
        clock.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(limiter.tryAcquire(a)).as("the period, begun by the first request, is over").isTrue();
        assertThat(limiter.tryAcquire(a)).as("and the whole volume is back").isTrue();
        assertThat(limiter.tryAcquire(a)).isTrue();
        assertThat(limiter.tryAcquire(a)).isFalse();
    }

    @Test
    void peersIdleForAWholePeriodAreForgotten() {
        AtomicLong clock = new AtomicLong();
        PeerRateLimiter limiter = new PeerRateLimiter(RateLimit.of(1, Duration.ofSeconds(1)), clock::get);
        for (int i = 0; i < 100; i++) {
            limiter.tryAcquire(peer());
        }
        assertThat(limiter.trackedPeers()).isEqualTo(100);
        clock.addAndGet(Duration.ofSeconds(2).toNanos());
        limiter.tryAcquire(peer());
        assertThat(limiter.trackedPeers()).isEqualTo(1);
    }

    @Test
    void unlimitedLetsEveryRequestThroughAndTracksNoPeer() {
        PeerRateLimiter limiter = new PeerRateLimiter(RateLimit.UNLIMITED, System::nanoTime);
        PeerId a = peer();
        for (int i = 0; i < 1000; i++) {
            assertThat(limiter.tryAcquire(a)).isTrue();
        }
        assertThat(limiter.trackedPeers()).isZero();
    }
}
