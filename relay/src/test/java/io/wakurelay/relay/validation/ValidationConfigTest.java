package io.wakurelay.relay.validation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValidationConfigTest {
    @Test
    void theDefaultsAreValidAndEachBoundIsCheckedNamingIt() {
        assertThat(ValidationConfig.DEFAULTS.toBuilder().build()).isEqualTo(ValidationConfig.DEFAULTS);
        assertThatThrownBy(() -> ValidationConfig.DEFAULTS.toBuilder().threads(0).build())
                .hasMessageContaining("validation threads");
        assertThatThrownBy(() -> ValidationConfig.DEFAULTS.toBuilder().threads(4).queueMessages(3).build())
                .as("a queue shorter than the threads").hasMessageContaining("validation queue messages");
        assertThatThrownBy(() -> ValidationConfig.DEFAULTS.toBuilder().queueBytes(0).build())
                .hasMessageContaining("validation queue bytes");
        assertThatThrownBy(() -> ValidationConfig.DEFAULTS.toBuilder().peerInFlight(513).build())
                .as("a budget larger than the queue").hasMessageContaining("validation peer in flight");
        assertThatThrownBy(() -> ValidationConfig.DEFAULTS.toBuilder().maxWaitingCopies(-1).build())
                .hasMessageContaining("validation max waiting copies");
        assertThatThrownBy(() -> ValidationConfig.DEFAULTS.toBuilder().rejectionsBeforeDisconnect(0).build())
                .hasMessageContaining("validation rejections before disconnect");
    }

    @Test
    void aReasonIsALowerCaseLabelNeverAnythingAPeerCouldHaveWritten() {
        assertThat(Verdict.reject("invalid_proof").reason()).isEqualTo("invalid_proof");
        for (String bad : new String[]{null, "", "Invalid", "spaces here", "x".repeat(65), "9lives", "quote\""}) {
            assertThatThrownBy(() -> Verdict.ignore(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
