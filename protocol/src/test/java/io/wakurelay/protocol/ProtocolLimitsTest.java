package io.wakurelay.protocol;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProtocolLimitsTest {
    @Test
    void defaultsAreThoseOfTheWakuNetwork() {
        assertThat(ProtocolLimits.DEFAULTS.maxRpcSize()).isEqualTo(1 << 20);
        assertThat(ProtocolLimits.DEFAULTS.maxMessageSize()).isEqualTo(153_600);
        assertThat(ProtocolLimits.DEFAULTS.maxClockDrift()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void refusesAnRpcLimitThatCannotCarryTheLargestMessage() {
        assertThatThrownBy(() -> new ProtocolLimits(1000, 1000, 256, 2048, Duration.ZERO)).hasMessageContaining("cannot carry");
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new ProtocolLimits(1 << 20, 0, 256, 2048, Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> new ProtocolLimits(1 << 20, 1000, 256, 2048, Duration.ofSeconds(-1))).hasMessageContaining("negative");
    }

    @Test
    void raisingTheMessageSizeRaisesTheRpcSizeWithIt() {
        ProtocolLimits big = ProtocolLimits.DEFAULTS.withMaxMessageSize(2 << 20);
        assertThat(big.maxRpcSize()).isGreaterThan(2 << 20);
    }
}
