package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PendingVerdictsTest {
    private static PeerState peer() {
        return new PeerState(PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey()), null, null, null,
                new PeerScore(ScoreParams.DEFAULTS), RelayConfig.DEFAULTS);
    }

    private static MessageId id(int i) {
        byte[] bytes = new byte[MessageId.BYTES];
        bytes[0] = (byte) i;
        return new MessageId(bytes);
    }

    @Test
    void theCopiesOfAMessageBeingJudgedWaitOncePerPeerUpToTheBoundAndLeaveWithTheVerdict() {
        PendingVerdicts pending = new PendingVerdicts(2);
        PeerState a = peer();
        PeerState b = peer();
        PeerState c = peer();
        assertThat(pending.await(id(1), a)).as("not judged: a plain duplicate").isNull();

        pending.open(id(1), Messages.TOPIC);

        assertThat(pending.await(id(1), a)).isEqualTo(PendingVerdicts.Copy.WAITS);
        assertThat(pending.await(id(1), a)).isEqualTo(PendingVerdicts.Copy.REPEATED);
        assertThat(pending.await(id(1), b)).isEqualTo(PendingVerdicts.Copy.WAITS);
        assertThat(pending.await(id(1), c)).as("past the bound").isEqualTo(PendingVerdicts.Copy.UNSCORED);
        PendingVerdicts.Waiters waiters = pending.close(id(1));
        assertThat(waiters.topic()).isEqualTo(Messages.TOPIC);
        assertThat(waiters.peers()).containsExactly(a, b);
        assertThat(pending.size()).isZero();
        assertThat(pending.close(id(1))).isEqualTo(PendingVerdicts.Waiters.NONE);
    }

    @Test
    void aMessageWithoutCopiesHoldsNoListOfWaiters() {
        PendingVerdicts pending = new PendingVerdicts(16);
        pending.open(id(2), Messages.TOPIC);
        assertThat(pending.close(id(2)).peers()).isEmpty();
    }
}
