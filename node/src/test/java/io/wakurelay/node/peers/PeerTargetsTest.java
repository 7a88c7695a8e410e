package io.wakurelay.node.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.node.config.RelayServiceRatio;
import org.junit.jupiter.api.Test;

class PeerTargetsTest {
    @Test
    void theDefaultRatioSplitsFiftyConnectionsAsNwakuDoes() {
        // nwaku: relay = ceil(50 × 0.6) = 30, out = 30 div 3 = 10, in = 20; service = floor(50 × 0.4) = 20
        assertThat(PeerTargets.of(RelayServiceRatio.DEFAULTS, 50)).isEqualTo(new PeerTargets(20, 10, 20));
    }

    @Test
    void relayRoundsUpAndServiceRoundsDown() {
        assertThat(PeerTargets.of(RelayServiceRatio.parse("70:30"), 45)).isEqualTo(new PeerTargets(22, 10, 13));
        assertThat(PeerTargets.of(RelayServiceRatio.parse("100:0"), 12)).isEqualTo(new PeerTargets(8, 4, 0));
    }

    @Test
    void aRatioMustBeTwoNonNegativeSharesSummingToAHundred() {
        assertThat(RelayServiceRatio.parse(" 55.5:44.5 ").format()).isEqualTo("55.5:44.5");
        assertThatThrownBy(() -> RelayServiceRatio.parse("60:50")).hasMessageContaining("sum to 100");
        assertThatThrownBy(() -> RelayServiceRatio.parse("60")).hasMessageContaining("60:40");
        assertThatThrownBy(() -> RelayServiceRatio.parse("a:b")).hasMessageContaining("numbers");
        assertThatThrownBy(() -> RelayServiceRatio.parse("120:-20")).hasMessageContaining("negative");
    }
}
