package io.wakurelay.node;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.discv5.Discv5DiscoveryConfig;
import io.wakurelay.node.config.NetworkPreset;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.rln.RlnConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --preset twn} and {@code --cluster-id 1} make The Waku Network's node, as nwaku's networks_config.nim. */
class NetworkPresetTest {
    private static final String ENDPOINT = "http://127.0.0.1:8545/";
    private static final List<String> EIGHT_SHARDS = IntStream.range(0, 8).mapToObj(i -> "/waku/2/rs/1/" + i).toList();

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private NodeConfig parse(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("--data-dir", dir.toString()));
        all.addAll(List.of(args));
        return NodeMain.parse(all.toArray(String[]::new), env, warnings::add);
    }

    private NodeConfig parse(String... args) {
        return parse(Map.of(), args);
    }

    private static Discv5DiscoveryConfig discv5(NodeConfig c) {
        return c.discovery().discv5();
    }

    private static void assertTheWakuNetwork(NodeConfig c) {
        assertThat(c.relay().clusterId()).isEqualTo(1);
        assertThat(c.autoSharding()).isEqualTo(new AutoSharding(1, 8));
        assertThat(c.relay().pubsubTopics()).as("automatic sharding relays every shard of the network")
                .containsExactlyElementsOf(EIGHT_SHARDS);
        assertThat(c.relay().limits().maxMessageSize()).isEqualTo(150 * 1024);
        RlnConfig rln = c.rln();
        assertThat(rln).isNotNull();
        assertThat(rln.ethContractAddress()).isEqualTo("0xB9cd878C90E49F797B4431fBF4fb333108CB90e6");
        assertThat(rln.chainId()).isEqualTo(59141);
        assertThat(rln.epochSizeSec()).isEqualTo(600);
        assertThat(rln.userMessageLimit()).isEqualTo(100);
        assertThat(rln.ethClientAddresses()).containsExactly(URI.create(ENDPOINT));
        assertThat(discv5(c).enabled()).isTrue();
        assertThat(discv5(c).bootstrap()).extracting(Enr::text).containsExactlyElementsOf(NetworkPreset.TWN.discv5BootstrapNodes());
    }

    @Test
    void presetTwnIsTheWakuNetworkWithEightShardsRlnAndDiscv5() {
        NodeConfig c = parse("--preset", "TWN", "--rln-relay-eth-client-address", ENDPOINT);
        assertTheWakuNetwork(c);
        assertThat(warnings).isEmpty();
    }

    @Test
    void clusterOneIsTheWakuNetworkAsInNwakuWhichWarnsOfTheFuture() {
        NodeConfig c = parse("--cluster-id=1", "--rln-relay-eth-client-address=" + ENDPOINT);
        assertTheWakuNetwork(c);
        assertThat(warnings).containsExactly("TWN - The Waku Network configuration will not be applied when "
                + "`--cluster-id=1` is passed in future releases. Use `--preset=twn` instead.");
    }

    @Test
    void jsWakusToychatTopicIsOnShardThreeOfTheWakuNetwork() {
        // js-waku: contentTopicToShardIndex("/toychat/2/huilong/proto", 8) == 3
        NodeConfig c = parse("--preset=twn", "--rln-relay-eth-client-address=" + ENDPOINT, "--shard=0",
                "--content-topic=/toychat/2/huilong/proto");
        assertThat(c.autoSharding().pubsubTopic("/toychat/2/huilong/proto")).isEqualTo("/waku/2/rs/1/3");
        assertThat(c.relay().pubsubTopics()).containsExactly("/waku/2/rs/1/0", "/waku/2/rs/1/3");
    }

    @Test
    void thePresetsValuesWinAndEachDiscardedValueIsNamedInNwakusWords() {
        NodeConfig c = parse("--preset=twn", "--rln-relay-eth-client-address=" + ENDPOINT, "--cluster-id=16",
                "--num-shards-in-network=4", "--max-msg-size=1MiB", "--rln-relay=false", "--rln-relay-chain-id=5",
                "--rln-relay-epoch-sec=1", "--rln-relay-user-message-limit=7", "--rln-relay-dynamic=false",
                "--rln-relay-eth-contract-address=0x0000000000000000000000000000000000000001");
        assertTheWakuNetwork(c);
        assertThat(warnings).containsExactly(
                "Cluster id was provided alongside a network conf: used=1 discarded=16 (--cluster-id)",
                "RLN Relay was provided alongside a network conf: used=true discarded=false (--rln-relay)",
                "RLN Relay ETH Contract Address was provided alongside a network conf: "
                        + "used=0xB9cd878C90E49F797B4431fBF4fb333108CB90e6 "
                        + "discarded=0x0000000000000000000000000000000000000001 (--rln-relay-eth-contract-address)",
                "RLN Relay Chain Id was provided alongside a network conf: used=59141 discarded=5 (--rln-relay-chain-id)",
                "RLN Relay Dynamic was provided alongside a network conf: used=true discarded=false (--rln-relay-dynamic)",
                "RLN Epoch Size in Seconds was provided alongside a network conf: used=600 discarded=1 (--rln-relay-epoch-sec)",
                "RLN Relay User Message Limit was provided alongside a network conf: used=100 discarded=7 "
                        + "(--rln-relay-user-message-limit)",
                "Max Message Size was provided alongside a network conf: used=150KiB discarded=1MiB (--max-msg-size)",
                "Num Shards In Cluster was provided alongside a network conf: used=8 discarded=4 (--num-shards-in-network)");
    }

    @Test
    void aValueGivenEqualToThePresetsIsNotDiscardedAndStaticShardingIsNamedAsNwakuNamesIt() {
        parse("--preset=twn", "--rln-relay-eth-client-address=" + ENDPOINT, "--cluster-id=1", "--max-msg-size=153600",
                "--rln-relay", "--rln-relay-eth-contract-address=0xb9cd878c90e49f797b4431fbf4fb333108cb90e6");
        assertThat(warnings).isEmpty();
        NodeConfig c = parse("--preset=twn", "--rln-relay-eth-client-address=" + ENDPOINT, "--num-shards-in-network=0");
        assertThat(c.autoSharding()).isEqualTo(new AutoSharding(1, 8));
        assertThat(warnings).containsExactly("Sharding Conf was provided alongside a network conf: used=AutoSharding "
                + "discarded=StaticSharding (--num-shards-in-network)");
    }

    @Test
    void discv5FalseIsHonouredAndBootstrapNodesGivenAreKeptBeforeThePresets() {
        String own = NetworkPreset.TWN.discv5BootstrapNodes().get(0);
        NodeConfig off = parse("--preset=twn", "--rln-relay-eth-client-address=" + ENDPOINT, "--discv5-discovery=false");
        assertThat(discv5(off).enabled()).isFalse();
        NodeConfig from = parse(Map.of("WAKURELAY_DISCV5_DISCOVERY", "false"), "--preset=twn",
                "--rln-relay-eth-client-address=" + ENDPOINT);
        assertThat(discv5(from).enabled()).as("given in the environment counts as given").isFalse();

        String another = "enr:-IS4QHCYrYZbAKWCBRlAy5zzaDZXJBGkcnh4MHcBFZntXNFrdvJjX04jRzjzCBOonrkTfj499SZuOh8R33Ls8RRcy5wBgmlkgnY0gmlwhH8AAAGJc2VjcDI1NmsxoQPKY0yuDUmstAHYpMa2_oxVtw0RW_QAdpzBQA8yWM0xOIN1ZHCCdl8";
        NodeConfig both = parse("--preset=twn", "--rln-relay-eth-client-address=" + ENDPOINT,
                "--discv5-bootstrap-node=" + another, "--discv5-bootstrap-node=" + own);
        assertThat(discv5(both).bootstrap()).extracting(Enr::text).hasSize(4).startsWith(another, own);
        assertThat(warnings).isEmpty();
    }

    @Test
    void thePresetWithoutAnEndpointStopsTheStartInOneLineNamingTheFlag() {
        assertThatThrownBy(() -> parse("--preset=twn"))
                .hasMessageContaining("--rln-relay-eth-client-address")
                .hasMessageContaining("59141")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> parse("--cluster-id=1", "--rln-relay-eth-client-address=ws://127.0.0.1:8546"))
                .hasMessageContaining("--rln-relay-eth-client-address")
                .hasMessageContaining("Websocket RPC URL is not supported");
        NodeConfig fromEnv = parse(Map.of("WAKURELAY_RLN_RELAY_ETH_CLIENT_ADDRESS", ENDPOINT), "--preset=twn");
        assertThat(fromEnv.rln().ethClientAddresses()).containsExactly(URI.create(ENDPOINT));
    }

    @Test
    void anEdgeNodeOfTheWakuNetworkRunsWithoutRlnAsInNwaku() {
        NodeConfig edge = parse("--preset=twn", "--relay=false");
        assertThat(edge.rln()).isNull();
        assertThat(edge.relay().clusterId()).isEqualTo(1);
    }

    @Test
    void anUnknownPresetIsRefusedInNwakusWords() {
        assertThatThrownBy(() -> parse("--preset=status"))
                .hasMessageContaining("--preset: Invalid --preset value passed: status");
    }

    @Test
    void thePresetAndRlnKeysOfATomlFileAreRead() throws Exception {
        Path file = Files.writeString(dir.resolve("twn.toml"), """
                preset = "twn"
                rln-relay-eth-client-address = ["http://127.0.0.1:8545/", "http://127.0.0.1:8546/"]
                rln-relay-nullifier-derivation = "legacy"
                """);
        NodeConfig c = parse("--config-file", file.toString());
        assertThat(c.relay().clusterId()).isEqualTo(1);
        assertThat(c.rln().ethClientAddresses()).containsExactly(URI.create("http://127.0.0.1:8545/"),
                URI.create("http://127.0.0.1:8546/"));
        assertThat(c.rln().derivation()).isEqualTo(RlnConfig.NullifierDerivation.LEGACY);
        assertThat(warnings).isEmpty();
    }
}
