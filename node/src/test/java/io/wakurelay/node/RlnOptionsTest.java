package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.rln.RlnConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** nwaku's RLN options, built into RlnConfig; the credential options accepted and named as not used. */
class RlnOptionsTest {
    private static final String CONTRACT = "0x1111111111111111111111111111111111111111";

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private NodeConfig parse(String... args) {
        List<String> all = new ArrayList<>(List.of("--data-dir", dir.toString()));
        all.addAll(List.of(args));
        return NodeMain.parse(all.toArray(String[]::new), Map.of(), warnings::add);
    }

    private NodeConfig rln(String... more) {
        List<String> args = new ArrayList<>(List.of("--rln-relay", "--rln-relay-eth-contract-address=" + CONTRACT,
                "--rln-relay-chain-id=31337"));
        args.addAll(List.of(more));
        return parse(args.toArray(String[]::new));
    }

    @Test
    void rlnIsOffUnlessTurnedOn() {
        assertThat(parse().rln()).isNull();
        assertThat(parse("--rln-relay=false", "--rln-relay-chain-id=5").rln()).isNull();
    }

    @Test
    void theOptionsAreTakenAsNwakuNamesThem() {
        RlnConfig c = rln("--rln-relay-eth-client-address=http://127.0.0.1:8545", "--rln-relay-eth-client-address",
                "https://rpc.example/v1?key=k", "--rln-relay-epoch-sec=10", "--rln-relay-user-message-limit=5",
                "--rln-relay-dynamic").rln();
        assertThat(c.ethClientAddresses()).containsExactly(URI.create("http://127.0.0.1:8545"),
                URI.create("https://rpc.example/v1?key=k"));
        assertThat(c.ethContractAddress()).isEqualTo(CONTRACT);
        assertThat(c.chainId()).isEqualTo(31337);
        assertThat(c.epochSizeSec()).isEqualTo(10);
        assertThat(c.userMessageLimit()).isEqualTo(5);
        assertThat(c.derivation()).as("nwaku 0.38's, the default").isEqualTo(RlnConfig.NullifierDerivation.V038);
        assertThat(warnings).isEmpty();
    }

    @Test
    void withoutAPresetNwakusDefaultEndpointIsTaken() {
        assertThat(rln().rln().ethClientAddresses()).containsExactly(URI.create("http://localhost:8540/"));
    }

    @Test
    void theLegacyDerivationIsASettingAndAnythingElseIsRefusedNamingIt() {
        assertThat(rln("--rln-relay-nullifier-derivation=LEGACY").rln().derivation())
                .isEqualTo(RlnConfig.NullifierDerivation.LEGACY);
        assertThatThrownBy(() -> rln("--rln-relay-nullifier-derivation=v037"))
                .hasMessageContaining("--rln-relay-nullifier-derivation: must be v038");
    }

    @Test
    void whatNwakuRefusesIsRefusedNamingTheFlag() {
        assertThatThrownBy(() -> parse("--rln-relay", "--rln-relay-chain-id=1"))
                .hasMessageContaining("--rln-relay needs --rln-relay-eth-contract-address");
        assertThatThrownBy(() -> parse("--rln-relay", "--rln-relay-eth-contract-address=" + CONTRACT))
                .hasMessageContaining("--rln-relay needs --rln-relay-chain-id");
        assertThatThrownBy(() -> rln("--rln-relay-cred-path=/keystore/keystore.json"))
                .hasMessageContaining("--rln-relay-cred-path needs --rln-relay-cred-password");
        assertThatThrownBy(() -> rln("--rln-relay-cred-password=secret"))
                .hasMessageContaining("--rln-relay-cred-password needs --rln-relay-cred-path")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> rln("--relay=false"))
                .hasMessageContaining("--rln-relay needs --relay=true");
        assertThatThrownBy(() -> rln("--rln-relay-eth-client-address=ftp://chain.example"))
                .hasMessageContaining("--rln-relay-eth-client-address");
        assertThatThrownBy(() -> parse("--rln-relay", "--rln-relay-chain-id=1", "--rln-relay-eth-contract-address=0x12"))
                .hasMessageContaining("--rln-relay-eth-contract-address: the contract address must be 0x and 40 hex digits");
        assertThatThrownBy(() -> rln("--rln-relay-epoch-sec=0")).hasMessageContaining("--rln-relay-epoch-sec");
        assertThatThrownBy(() -> rln("--rln-relay-chain-id=-1")).hasMessageContaining("--rln-relay-chain-id");
    }

    @Test
    void theCredentialOptionsAreAcceptedAndNamedOnceAsNotUsed() {
        NodeConfig c = rln("--rln-relay-cred-path=/keystore/keystore.json", "--rln-relay-cred-password=secret",
                "--rln-relay-membership-index=3", "--rln-relay-eth-private-key=0xabc");
        assertThat(c.rln()).isNotNull();
        assertThat(warnings).singleElement().asString()
                .startsWith("--rln-relay-cred-path, --rln-relay-cred-password, --rln-relay-membership-index, "
                        + "--rln-relay-eth-private-key accepted and not used")
                .doesNotContain("secret").doesNotContain("0xabc");
        warnings.clear();
        rln("--rln-relay-cred-path=", "--rln-relay-cred-password=");
        assertThat(warnings).as("empty values, as run_node.sh leaves them, are not given").isEmpty();
    }

    @Test
    void staticGroupsAreGoneSoDynamicFalseIsNamedAsIgnored() {
        assertThat(rln("--rln-relay-dynamic=false").rln()).isNotNull();
        assertThat(warnings).singleElement().asString().startsWith("--rln-relay-dynamic=false is ignored");
    }
}
