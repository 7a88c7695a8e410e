package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PeerScoreTest {
    private static final long SECOND = 1_000_000_000L;
    private final ScoreParams params = ScoreParams.DEFAULTS;

    @Test
    void firstDeliveriesRaiseTheScoreUpToTheirCap() {
        PeerScore score = new PeerScore(params);
        for (int i = 0; i < 50; i++) {
            score.firstDelivery("t");
        }
        assertThat(score.score(0, 1)).isEqualTo(10.0);
    }

    @Test
    void invalidMessagesCountSquaredSoAFewTakeAPeerBelowTheThresholds() {
        PeerScore score = new PeerScore(params);
        score.invalidDelivery("t");
        assertThat(score.score(0, 1)).isEqualTo(-100.0);
        score.invalidDelivery("t");
        assertThat(score.score(0, 1)).isLessThan(params.gossipThreshold());
        for (int i = 0; i < 8; i++) {
            score.invalidDelivery("t");
        }
        assertThat(score.score(0, 1)).isLessThanOrEqualTo(params.graylistThreshold());
    }

    @Test
    void timeInTheMeshAddsUpToItsCap() {
        PeerScore score = new PeerScore(params);
        score.grafted("t", 0);
        assertThat(score.score(5 * SECOND, 1)).isCloseTo(0.05, within(1e-9));
        assertThat(score.score(100 * SECOND, 1)).isCloseTo(0.1, within(1e-9));
        score.pruned("t");
        assertThat(score.score(100 * SECOND, 1)).isZero();
    }

    @Test
    void moreThanFivePeersOnOneAddressArePenalised() {
        PeerScore score = new PeerScore(params);
        assertThat(score.score(0, 5)).isZero();
        assertThat(score.score(0, 7)).isEqualTo(-200.0);
    }

    @Test
    void behaviourPenaltiesCountSquaredAndDecay() {
        PeerScore score = new PeerScore(params);
        score.behaviourPenalty(3);
        assertThat(score.score(0, 1)).isEqualTo(-90.0);
        score.decay();
        assertThat(score.score(0, 1)).isGreaterThan(-90.0);
    }

    @Test
    void countersFadeToZeroSoAPeerCanRecover() {
        PeerScore score = new PeerScore(params);
        score.invalidDelivery("t");
        for (int i = 0; i < 10; i++) {
            score.decay();
        }
        assertThat(score.score(0, 1)).isZero();
    }

    @Test
    void theStatsOfATopicLeaveOnceTheyHaveDecayedToNothingOutsideTheMesh() {
        PeerScore score = new PeerScore(params);
        score.invalidDelivery("left");
        score.grafted("mesh", 0);
        assertThat(score.topicCount()).isEqualTo(2);
        for (int i = 0; i < 10; i++) {
            score.decay();
        }
        assertThat(score.topicCount()).as("the mesh topic stays").isEqualTo(1);
        score.pruned("mesh");
        score.decay();
        assertThat(score.topicCount()).isZero();
    }
}
