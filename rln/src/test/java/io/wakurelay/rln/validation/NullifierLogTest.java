package io.wakurelay.rln.validation;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.wakurelay.rln.validation.NullifierLog.Outcome.FULL;
import static io.wakurelay.rln.validation.NullifierLog.Outcome.LOGGED;
import static io.wakurelay.rln.validation.NullifierLog.Outcome.SEEN;
import static org.assertj.core.api.Assertions.assertThat;

class NullifierLogTest {
    private static final long S = 1_000_000_000L;
    private static final long EPOCH = 2_941_667L;
    private static final long EPOCH_START = EPOCH * 600 * S;
    private static final long EPOCH_END = EPOCH_START + 600 * S;

    private final NullifierLog log = new NullifierLog(1000, 600, Duration.ofSeconds(20));

    @Test
    void aNullifierIsLoggedOnceAndItsSecondUseInTheEpochIsADoubleSignal() {
        byte[] n = nullifier(1);
        assertThat(log.record(EPOCH, n, EPOCH_START + 10 * S)).isEqualTo(LOGGED);
        assertThat(log.record(EPOCH, n.clone(), EPOCH_START + 11 * S)).isEqualTo(SEEN);
        assertThat(log.size()).isEqualTo(1);
    }

    @Test
    void theSameNullifierInTheNextEpochIsNew() {
        byte[] n = nullifier(2);
        assertThat(log.record(EPOCH, n, EPOCH_END - 5 * S)).isEqualTo(LOGGED);
        assertThat(log.record(EPOCH + 1, n, EPOCH_END + 5 * S)).isEqualTo(LOGGED);
    }

    @Test
    void aDoubleSignalValidatedAfterTheEpochBoundaryIsStillCaught() {
        // vectors' S3: the second message, stamped in E, is validated 6 s into E+1 (nwaku has forgotten E by then)
        byte[] n = nullifier(3);
        assertThat(log.record(EPOCH, n, EPOCH_END - 10 * S)).isEqualTo(LOGGED);
        assertThat(log.record(EPOCH, n, EPOCH_END + 6 * S)).isEqualTo(SEEN);
    }

    @Test
    void anEpochNoValidTimestampCanMapToAnyMoreIsForgotten() {
        byte[] n = nullifier(4);
        log.record(EPOCH, n, EPOCH_END - 1 * S);
        // a gap of 20 s is checked on whole seconds: a message stamped just before the boundary is valid until 21 s
        // after it, and its epoch is kept that long
        log.record(EPOCH + 1, nullifier(5), EPOCH_END + 21 * S - 1);
        assertThat(log.epochs()).isEqualTo(2);
        log.record(EPOCH + 1, nullifier(6), EPOCH_END + 21 * S);
        assertThat(log.epochs()).isEqualTo(1);
        assertThat(log.size()).isEqualTo(2);
    }

    @Test
    void aFullEpochRefusesNewNullifiersButStillKnowsItsOwn() {
        NullifierLog small = new NullifierLog(3, 600, Duration.ofSeconds(20));
        for (int i = 0; i < 3; i++) {
            assertThat(small.record(EPOCH, nullifier(100 + i), EPOCH_START)).isEqualTo(LOGGED);
        }
        assertThat(small.record(EPOCH, nullifier(200), EPOCH_START)).isEqualTo(FULL);
        assertThat(small.record(EPOCH, nullifier(101), EPOCH_START)).isEqualTo(SEEN);
        assertThat(small.record(EPOCH + 1, nullifier(200), EPOCH_START + 600 * S)).isEqualTo(LOGGED);
    }

    @Test
    void allTheEpochsKeptTogetherHoldAtMostTwiceOneEpochsBound() {
        // epochs of 1 s with a gap of 20 s keep 43 epochs: the bound over all of them is what bounds the memory
        NullifierLog shortEpochs = new NullifierLog(3, 1, Duration.ofSeconds(20));
        long now = EPOCH_START;
        int logged = 0;
        for (int epoch = 0; epoch < 10; epoch++) {
            for (int i = 0; i < 3; i++) {
                if (shortEpochs.record(now / S + epoch, nullifier(1000 * epoch + i), now) == LOGGED) {
                    logged++;
                }
            }
        }
        assertThat(logged).isEqualTo(6);
        assertThat(shortEpochs.size()).isEqualTo(6);
        assertThat(shortEpochs.record(now / S + 20, nullifier(5000), now)).isEqualTo(FULL);
        assertThat(shortEpochs.record(now / S, nullifier(0), now)).as("a known one is still spam").isEqualTo(SEEN);
    }

    @Test
    void manyNullifiersAreAllFoundAfterTheTableGrows() {
        NullifierLog big = new NullifierLog(50_000, 600, Duration.ofSeconds(20));
        Random random = new Random(42);
        List<byte[]> seen = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            byte[] n = new byte[32];
            random.nextBytes(n);
            seen.add(n);
            assertThat(big.record(EPOCH, n, EPOCH_START)).isEqualTo(LOGGED);
        }
        for (byte[] n : seen) {
            assertThat(big.record(EPOCH, n, EPOCH_START)).isEqualTo(SEEN);
        }
        assertThat(big.size()).isEqualTo(20_000);
    }

    @Test
    void nullifiersThatDifferInOneByteAreDifferent() {
        byte[] a = nullifier(7);
        byte[] b = a.clone();
        b[31] ^= 1;
        assertThat(log.record(EPOCH, a, EPOCH_START)).isEqualTo(LOGGED);
        assertThat(log.record(EPOCH, b, EPOCH_START)).isEqualTo(LOGGED);
    }

    @Test
    void theZeroNullifierIsLoggedLikeAnyOther() {
        assertThat(log.record(EPOCH, new byte[32], EPOCH_START)).isEqualTo(LOGGED);
        assertThat(log.record(EPOCH, new byte[32], EPOCH_START)).isEqualTo(SEEN);
    }

    private static byte[] nullifier(int seed) {
        byte[] n = new byte[32];
        new Random(seed).nextBytes(n);
        return n;
    }
}
