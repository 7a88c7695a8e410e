package io.wakurelay.rln;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.wakurelay.rln.chain.MembershipRootsConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RlnConfigMembershipRootsTest {

    @Test
    void theDefaultsOfTheRootsAreTheDefaultsOfTheRlnFlags() {
        assertThat(RlnConfig.DEFAULTS.membershipRoots()).isEqualTo(MembershipRootsConfig.DEFAULTS);
    }

    @Test
    void theRlnFlagsAreWhatTheRootsAreReadWith() {
        RlnConfig rln = RlnConfig.builder()
                .ethClientAddresses(List.of(URI.create("http://127.0.0.1:8545"), URI.create("https://rpc.example/k")))
                .ethContractAddress("0xB9cd878C90E49F797B4431fBF4fb333108CB90e6").chainId(59141).rootWindow(7)
                .rootPollInterval(Duration.ofSeconds(1)).unknownRootRefreshInterval(Duration.ofMillis(300)).build();
        MembershipRootsConfig roots = rln.membershipRoots();
        assertThat(roots.ethClientAddresses()).isEqualTo(rln.ethClientAddresses());
        assertThat(roots.ethContractAddress()).isEqualTo(rln.ethContractAddress());
        assertThat(roots.chainId()).isEqualTo(59141);
        assertThat(roots.rootWindow()).isEqualTo(7);
        assertThat(roots.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(roots.unknownRootRefreshInterval()).isEqualTo(Duration.ofMillis(300));
        assertThat(roots.callTimeout()).isEqualTo(MembershipRootsConfig.DEFAULTS.callTimeout());
    }

    @Test
    void theRootsConfigRefusesWhatCannotWorkAndNamesNoSecretOfAnUrl() {
        assertThatThrownBy(() -> MembershipRootsConfig.builder()
                .ethClientAddresses(List.of(URI.create("ws://127.0.0.1:8546/v3/secret"))).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http(s)")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> MembershipRootsConfig.builder().ethContractAddress("0x1234").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("40 hex digits");
        assertThatThrownBy(() -> MembershipRootsConfig.builder().rootWindow(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MembershipRootsConfig.builder().pollInterval(Duration.ofMillis(10)).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MembershipRootsConfig.builder().maxResponseBytes(10).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MembershipRootsConfig.builder().startAttempts(0).build())
                .isInstanceOf(IllegalArgumentException.class);
    }
}
