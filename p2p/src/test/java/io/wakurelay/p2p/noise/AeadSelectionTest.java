package io.wakurelay.p2p.noise;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What {@code --aead-provider} chooses, on this JVM and CPU. */
class AeadSelectionTest {

    @Test
    void jdkAndConscryptAreWhatTheySayAndNeverChange() {
        assertThat(AeadSelection.start(AeadSelection.Choice.JDK).current()).isSameAs(ChaChaPoly.JDK);
        assertThat(AeadSelection.start(AeadSelection.Choice.CONSCRYPT).current().label()).isEqualTo("conscrypt");
    }

    @Test
    void autoIsConscryptWhereItLoads() {
        // Conscrypt carries a native library for Linux x86-64, which CI and this project's machines are
        assertThat(ChaChaPoly.conscrypt()).as(ChaChaPoly.conscryptFailure()).isPresent();
        assertThat(AeadSelection.start(AeadSelection.Choice.AUTO).current().label()).isEqualTo("conscrypt");
    }

    @Test
    void conscryptAgreesWithTheJdkByteForByte() throws Exception {
        assertThat(ChaChaPoly.sameAsJdk(ChaChaPoly.conscrypt().orElseThrow())).isNull();
    }

    @Test
    void anUnknownChoiceIsRefusedWithTheChoicesNamed() {
        assertThatThrownBy(() -> AeadSelection.Choice.parse("fast"))
                .hasMessageContaining("auto, conscrypt or jdk");
        assertThat(AeadSelection.Choice.parse("conscrypt")).isEqualTo(AeadSelection.Choice.CONSCRYPT);
    }
}
