package io.wakurelay.relay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ControlBudgetTest {
    private static final RelayConfig CONFIG = RelayConfig.DEFAULTS.toBuilder().maxTopics(4)
            .gossip(GossipParams.DEFAULTS)
            .peerLimits(PeerLimits.DEFAULTS.toBuilder().maxGraftsAndPrunesPerHeartbeat(10).maxIWantLength(5000)
                    .maxIDontWantMessages(2).build())
            .build();

    @Test
    void graftsAndPrunesAreTakenUpToTheBoundAndNoneAfter() {
        ControlBudget budget = new ControlBudget(CONFIG);
        assertThat(budget.takeGraftsAndPrunes(7)).isEqualTo(7);
        assertThat(budget.takeGraftsAndPrunes(7)).as("what is left").isEqualTo(3);
        assertThat(budget.takeGraftsAndPrunes(1)).isZero();
    }

    @Test
    void ihaveRpcsAndAsksIwantIdsAndIdontwantRpcsEachHaveTheirOwnBound() {
        ControlBudget budget = new ControlBudget(CONFIG);
        for (int i = 0; i < GossipParams.DEFAULTS.maxIHaveMessages(); i++) {
            assertThat(budget.takeIHaveRpc()).isTrue();
        }
        assertThat(budget.takeIHaveRpc()).isFalse();
        for (int i = 0; i < GossipParams.DEFAULTS.maxIHaveLength(); i++) {
            assertThat(budget.takeIHaveAsk()).isTrue();
        }
        assertThat(budget.takeIHaveAsk()).isFalse();
        for (int i = 0; i < 5000; i++) {
            assertThat(budget.takeIWantId()).isTrue();
        }
        assertThat(budget.takeIWantId()).isFalse();
        assertThat(budget.takeIDontWantRpc()).isTrue();
        assertThat(budget.takeIDontWantRpc()).isTrue();
        assertThat(budget.takeIDontWantRpc()).isFalse();
        assertThat(budget.takeGraftsAndPrunes(10)).as("untouched by the others").isEqualTo(10);
    }

    @Test
    void aHeartbeatRefillsEveryBound() {
        ControlBudget budget = new ControlBudget(CONFIG);
        budget.takeGraftsAndPrunes(10);
        while (budget.takeIDontWantRpc()) {
            // empty it
        }
        budget.refill();
        assertThat(budget.takeGraftsAndPrunes(10)).isEqualTo(10);
        assertThat(budget.takeIDontWantRpc()).isTrue();
    }
}
