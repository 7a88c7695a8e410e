package io.wakurelay.node;

import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** nwaku's WAKUNODE2_* variables beside ours, with nwaku's precedence: command line, environment, config file. */
class EnvironmentVariablesTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private NodeConfig parse(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("--data-dir", dir.toString()));
        all.addAll(List.of(args));
        return NodeMain.parse(all.toArray(String[]::new), env, warnings::add);
    }

    @Test
    void nwakusVariablesAreReadForEveryOptionWeShareWithNwaku() {
        String peer = "/ip4/127.0.0.1/tcp/60001/p2p/" + PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        NodeConfig c = parse(Map.of("WAKUNODE2_TCP_PORT", "61000", "WAKUNODE2_DNS4_DOMAIN_NAME", "node.example.org",
                "WAKUNODE2_REST_ADMIN", "true", "WAKUNODE2_STATICNODE", peer,
                "WAKUNODE2_STORE_MESSAGE_RETENTION_POLICY", "capacity:1000"));
        assertThat(c.host().listenAddress().getPort()).isEqualTo(61000);
        assertThat(c.host().dns4DomainName()).isEqualTo("node.example.org");
        assertThat(c.rest().admin()).isTrue();
        assertThat(c.host().staticPeers()).containsExactly(Multiaddr.parse(peer));
        assertThat(c.archive().core().retention().spec()).isEqualTo("capacity:1000");
        assertThat(warnings).isEmpty();
    }

    @Test
    void theCommandLineBeatsTheEnvironmentWhichBeatsTheConfigFileAsInNwaku() throws Exception {
        Path file = Files.writeString(dir.resolve("node.toml"), "tcp-port = 61000\nrest-port = 9000\nmetrics-server-port = 9100\n");
        Map<String, String> env = Map.of("WAKUNODE2_CONFIG_FILE", file.toString(), "WAKUNODE2_REST_PORT", "9200",
                "WAKUNODE2_METRICS_SERVER_PORT", "9300");
        NodeConfig c = parse(env, "--metrics-server-port", "9400");
        assertThat(c.host().listenAddress().getPort()).as("the file, which WAKUNODE2_CONFIG_FILE names").isEqualTo(61000);
        assertThat(c.rest().port()).as("the environment over the file").isEqualTo(9200);
        assertThat(c.metrics().port()).as("the command line over both").isEqualTo(9400);
    }

    @Test
    void ourNameWinsOverNwakusAndADifferenceIsNamed() {
        NodeConfig c = parse(Map.of("WAKURELAY_TCP_PORT", "61001", "WAKUNODE2_TCP_PORT", "61002"));
        assertThat(c.host().listenAddress().getPort()).isEqualTo(61001);
        assertThat(warnings).singleElement().asString()
                .contains("WAKUNODE2_TCP_PORT (WAKURELAY_TCP_PORT is set too, and wins)");
        warnings.clear();
        parse(Map.of("WAKURELAY_TCP_PORT", "61001", "WAKUNODE2_TCP_PORT", "61001"));
        assertThat(warnings).isEmpty();
    }

    @Test
    void theWakuNetworkFromNwakusVariablesAlone() {
        NodeConfig c = parse(Map.of("WAKUNODE2_CLUSTER_ID", "1", "WAKUNODE2_RLN_RELAY_ETH_CLIENT_ADDRESS",
                "http://127.0.0.1:8545/"));
        assertThat(c.relay().pubsubTopics()).hasSize(8);
        assertThat(c.rln()).isNotNull();
    }

    @Test
    void aVariableThatIsReadNowhereIsNamedOnceAndTheClosestOptionSuggested() {
        Map<String, String> env = new HashMap<>();
        env.put("WAKURELAY_TCP_PROT", "61000");
        env.put("WAKUNODE2_AGENT_STRING", "nwaku");
        env.put("WAKUNODE2_METRICS_LOGGING", "false");
        env.put("WAKUNODE2_STORE_DURABILITY", "flush");
        env.put("WAKURELAY_STORE_MESSAGE_DB_PASSWORD", "secret");
        env.put("WAKURELAY_JAVA_OPTS", "-Xmx512m");
        env.put("PATH", "/usr/bin");
        NodeConfig c = parse(env);
        assertThat(((io.wakurelay.archive.RocksConfig) c.archive()).durability().label()).as("not nwaku's option: not read under nwaku's name").isEqualTo("wal");
        assertThat(warnings).containsExactly(
                "environment: ignoring 2 nwaku variable(s) this node has no option for: WAKUNODE2_AGENT_STRING, "
                        + "WAKUNODE2_METRICS_LOGGING",
                "environment: WAKURELAY_TCP_PROT (did you mean WAKURELAY_TCP_PORT?) name(s) no option; not read",
                "environment: WAKUNODE2_STORE_DURABILITY (set WAKURELAY_STORE_DURABILITY: --store-durability is this "
                        + "node's, not nwaku's) not read");
    }

    @Test
    void anNwakuVariableThatTurnsOnWhatThisNodeCannotDoStopsTheStartAndOffIsIgnored() {
        assertThatThrownBy(() -> parse(Map.of("WAKUNODE2_STORE_SYNC", "true")))
                .hasMessage("environment: this node does not support WAKUNODE2_STORE_SYNC (store synchronisation with "
                        + "other store nodes); unset the variable(s) or set them off to start without");
        parse(Map.of("WAKUNODE2_STORE_SYNC", "false"));
        assertThat(warnings).singleElement().asString().contains("WAKUNODE2_STORE_SYNC");
    }
}
