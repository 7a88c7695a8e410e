package io.wakurelay.p2p.noise;

import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.Test;

import java.time.Duration;

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
    void autoBeginsWithConscryptAndEndsOnTheFasterOfTheTwo() throws Exception {
        AeadSelection auto = AeadSelection.start(AeadSelection.Choice.AUTO);
        assertThat(auto.current().label()).as("at first").isEqualTo("conscrypt");
        Eventually.until("the selection settles", Duration.ofSeconds(30), auto::settled);
        if (Runtime.version().feature() < AeadSelection.FIRST_JAVA_WITH_INTRINSICS) {
            assertThat(auto.current().label()).as("no JDK before Java 20 is faster").isEqualTo("conscrypt");
            return;
        }
        // the selection's own measurement compiled the JDK's cipher: a short measurement of each is fair now
        double jdk = AeadSelection.bestRate(ChaChaPoly.JDK, 500_000_000L, Double.MAX_VALUE);
        double conscrypt = AeadSelection.bestRate(ChaChaPoly.conscrypt().orElseThrow(), 500_000_000L, Double.MAX_VALUE);
        System.out.printf("AeadSelectionTest on Java %d: JDK %.0f MB/s, Conscrypt %.0f MB/s; auto chose %s%n",
                Runtime.version().feature(), jdk, conscrypt, auto.current());
        // where the two are close, either is right: only a clear winner is asserted
        if (Math.max(jdk, conscrypt) > 1.5 * Math.min(jdk, conscrypt)) {
            assertThat(auto.current().label()).isEqualTo(jdk > conscrypt ? "jdk" : "conscrypt");
        }
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
