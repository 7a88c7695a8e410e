package io.wakurelay.discovery.discv5;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The challenge table: bounded, and a challenge younger than the protection is never pushed out by a newcomer. */
class ChallengesTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final InetSocketAddress FROM = new InetSocketAddress("127.0.0.1", 9000);

    private static byte[] id(int n) {
        byte[] id = new byte[32];
        id[0] = (byte) (n >> 8);
        id[1] = (byte) n;
        return id;
    }

    private static Challenges.Challenge challenge(long sentNanos) {
        return new Challenges.Challenge(Packet.whoareyou(new byte[16], new byte[12], new byte[16], 0), null, sentNanos);
    }

    @Test
    void aFullTableRefusesNewcomersRatherThanGiveUpAChallengeYoungerThanTheProtection() {
        Challenges table = new Challenges(4, 1_000 * MS, 2_000 * MS);
        for (int i = 0; i < 4; i++) {
            assertThat(table.put(id(i), FROM, challenge(i * MS), i * MS)).isTrue();
        }
        assertThat(table.put(id(100), FROM, challenge(500 * MS), 500 * MS)).as("all four are 500 ms old or younger")
                .isFalse();
        assertThat(table.size()).isEqualTo(4);
        assertThat(table.take(id(0), FROM, 600 * MS)).as("the honest node's handshake, 600 ms later").isNotNull();
    }

    @Test
    void aChallengePastTheProtectionMakesRoomAndOnePastItsLifetimeIsGone() {
        Challenges table = new Challenges(2, 1_000 * MS, 2_000 * MS);
        table.put(id(1), FROM, challenge(0), 0);
        table.put(id(2), FROM, challenge(100 * MS), 100 * MS);
        assertThat(table.put(id(3), FROM, challenge(1_050 * MS), 1_050 * MS)).as("the oldest is past the protection")
                .isTrue();
        assertThat(table.take(id(1), FROM, 1_060 * MS)).isNull();
        assertThat(table.take(id(2), FROM, 1_060 * MS)).isNotNull();
        assertThat(table.take(id(3), FROM, 3_100 * MS)).as("taken past its lifetime").isNull();
        assertThat(table.size()).isZero();
    }

    @Test
    void aNodesChallengeIsItsCurrentOneOnlyWhileYoungerThanTheProtection() {
        Challenges table = new Challenges(8, 1_000 * MS, 2_000 * MS);
        Challenges.Challenge first = challenge(0);
        table.put(id(1), FROM, first, 0);
        assertThat(table.current(id(1), FROM, 999 * MS)).isSameAs(first);
        assertThat(table.current(id(1), new InetSocketAddress("127.0.0.1", 9001), 10 * MS)).as("another endpoint")
                .isNull();
        assertThat(table.current(id(1), FROM, 1_000 * MS)).isNull();
    }
}
