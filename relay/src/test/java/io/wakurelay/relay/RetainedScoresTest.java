package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RetainedScoresTest {
    private static final long MINUTE = 60_000_000_000L;

    private static PeerId peer() {
        return PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
    }

    private static PeerScore penalised() {
        PeerScore score = new PeerScore(ScoreParams.DEFAULTS);
        score.behaviourPenalty(5);
        return score;
    }

    @Test
    void aReconnectingPeerGetsItsScoreBackOnce() {
        RetainedScores retained = new RetainedScores(10, 10 * MINUTE);
        PeerId id = peer();
        PeerScore score = penalised();
        retained.retain(id, score, 0);

        assertThat(retained.take(id)).isSameAs(score);
        assertThat(retained.take(id)).isNull();
        assertThat(retained.size()).isZero();
    }

    @Test
    void aScoreIsForgottenAfterItsRetainTime() {
        RetainedScores retained = new RetainedScores(10, 10 * MINUTE);
        PeerId early = peer();
        PeerId late = peer();
        retained.retain(early, penalised(), 0);
        retained.retain(late, penalised(), 5 * MINUTE);

        retained.expire(10 * MINUTE);
        assertThat(retained.take(early)).isNull();
        assertThat(retained.take(late)).isNotNull();
    }

    @Test
    void aPeerCyclingIdentitiesFillsItOnlyToItsCapacityAndTheOldestGoFirst() {
        RetainedScores retained = new RetainedScores(100, 10 * MINUTE);
        List<PeerId> identities = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            PeerId id = peer();
            identities.add(id);
            retained.retain(id, penalised(), i);
        }

        assertThat(retained.size()).isEqualTo(100);
        assertThat(retained.take(identities.get(899))).as("the oldest went").isNull();
        assertThat(retained.take(identities.get(900))).isNotNull();
        assertThat(retained.take(identities.get(999))).isNotNull();
    }

    @Test
    void retainingAPeerAgainMakesItTheNewest() {
        RetainedScores retained = new RetainedScores(2, 10 * MINUTE);
        PeerId first = peer();
        PeerId second = peer();
        retained.retain(first, penalised(), 0);
        retained.retain(second, penalised(), 1);
        retained.retain(first, penalised(), 2);
        retained.retain(peer(), penalised(), 3);

        assertThat(retained.take(second)).isNull();
        assertThat(retained.take(first)).isNotNull();
    }
}
