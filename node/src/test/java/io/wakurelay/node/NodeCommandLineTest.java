package io.wakurelay.node;

import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.node.logging.LogFormat;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.node.config.ConfigSources;
import io.wakurelay.node.config.NodeOptions;
import io.wakurelay.p2p.crypto.NodeKey;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.testkit.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeCommandLineTest {
    @TempDir
    Path dir;

    @Test
    void helpListsEveryOptionWithItsDefault() {
        CommandLine cli = NodeOptions.commandLine(new NodeOptions(), ConfigSources.builtIn());
        String help = cli.getUsageMessage();
        for (CommandLine.Model.OptionSpec option : cli.getCommandSpec().options()) {
            assertThat(help).contains(option.longestName());
            String value = ConfigSources.builtIn().defaultValue(option);
            if (value != null) {
                assertThat(help).contains("Default: " + value);
            }
        }
        assertThat(help).contains("--tcp-port", "Default: 60000", "--rest-port", "Default: 8645", "--metrics-server-port",
                "Default: 8008", "--store-message-retention-policy", "--max-msg-size", "Default: 150KiB", "--staticnode");
    }

    @Test
    void defaultsAreNwakusPortsAndLocalOnlyApis() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of());
        assertThat(c.host().listenAddress().getPort()).isEqualTo(60000);
        assertThat(c.rest().address()).isEqualTo("127.0.0.1");
        assertThat(c.rest().port()).isEqualTo(8645);
        assertThat(c.rest().admin()).isFalse();
        assertThat(c.metrics().address()).isEqualTo("127.0.0.1");
        assertThat(c.metrics().port()).isEqualTo(8008);
        assertThat(c.relay().limits().maxMessageSize()).isEqualTo(153_600);
        assertThat(c.relay().pubsubTopics()).containsExactly("/waku/2/rs/0/0");
        assertThat(c.relay().clusterId()).isZero();
        assertThat(c.host().muxers()).containsExactly("/yamux/1.0.0", "/mplex/6.7.0");
        assertThat(c.nodeKey()).as("made by the node when it starts, not while its options are read").isNull();
        assertThat(dir.resolve(NodeKey.FILE_NAME)).as("parsing creates nothing").doesNotExist();
    }

    @Test
    void theStoresDurabilityAndFlushIntervalComeFromTheirFlagsAndABadModeNamesTheChoices() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-durability", "flush",
                "--store-flush-interval", "50ms"}, Map.of());
        RocksConfig archive = (RocksConfig) c.archive();
        assertThat(archive.durability()).isEqualTo(Durability.FLUSH);
        assertThat(archive.flushInterval()).isEqualTo(Duration.ofMillis(50));
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-durability", "fsync"}, Map.of()))
                .hasMessageContaining("durability must be one of wal, wal-sync, flush");
    }

    @Test
    void flushesUseDirectIoUnlessTurnedOff() {
        assertThat(((RocksConfig) NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of()).archive()).directIo())
                .isTrue();
        assertThat(((RocksConfig) NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-direct-io=false"},
                Map.of()).archive()).directIo()).isFalse();
    }

    @Test
    void aBareBooleanFlagMeansTrueAsInNwakuAndNwakusLogLevelsAreMapped() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--rest-admin", "--lightpush",
                "--log-level", "notice"}, Map.of());
        assertThat(c.rest().admin()).isTrue();
        assertThat(c.services().lightpush()).isNotNull();
        assertThat(c.logLevel()).isEqualTo("INFO");
        NodeConfig off = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--filter", "false", "--log-level", "FATAL"}, Map.of());
        assertThat(off.services().filter()).isNull();
        assertThat(off.services().lightpush()).isNotNull();
        assertThat(off.logLevel()).isEqualTo("ERROR");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--log-level", "loud"}, Map.of()))
                .hasMessageContaining("--log-level");
    }

    @Test
    void automaticShardingRelaysEveryShardOfTheNetworkUnlessShardsAreNamedAsNwakuDoes() {
        // cluster 16: cluster 1 is The Waku Network's preset (NetworkPresetTest)
        NodeConfig all = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--cluster-id", "16",
                "--num-shards-in-network", "8"}, Map.of());
        assertThat(all.autoSharding()).isEqualTo(new io.wakurelay.protocol.AutoSharding(16, 8));
        assertThat(all.relay().pubsubTopics()).containsExactly("/waku/2/rs/16/0", "/waku/2/rs/16/1", "/waku/2/rs/16/2",
                "/waku/2/rs/16/3", "/waku/2/rs/16/4", "/waku/2/rs/16/5", "/waku/2/rs/16/6", "/waku/2/rs/16/7");

        NodeConfig one = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--cluster-id", "16",
                "--num-shards-in-network", "8", "--shard", "0"}, Map.of());
        assertThat(one.relay().pubsubTopics()).containsExactly("/waku/2/rs/16/0");
        NodeConfig plain = NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of());
        assertThat(plain.autoSharding()).as("nwaku's default --num-shards-in-network 1")
                .isEqualTo(new io.wakurelay.protocol.AutoSharding(0, 1));
        assertThat(plain.relay().pubsubTopics()).containsExactly("/waku/2/rs/0/0");
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--num-shards-in-network", "0"}, Map.of())
                .autoSharding()).as("0: static sharding only").isNull();
    }

    @Test
    void contentTopicsRelayTheirShardsBesidesTheNamedOnesAndAreCachedForRest() {
        io.wakurelay.protocol.AutoSharding eight = new io.wakurelay.protocol.AutoSharding(16, 8);
        String content = "/toychat/2/huilong/proto";
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--cluster-id", "16",
                "--num-shards-in-network", "8", "--shard", "0", "--content-topic", content, "--content-topic", content}, Map.of());
        assertThat(c.relay().pubsubTopics()).containsExactlyInAnyOrder("/waku/2/rs/16/0", eight.pubsubTopic(content));
        assertThat(c.rest().contentTopics()).containsExactly(content);
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--content-topic", "Hello"}, Map.of()))
                .as("a content topic that has no shard").hasMessageContaining("--content-topic");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--num-shards-in-network", "0",
                "--content-topic", content}, Map.of())).hasMessageContaining("--content-topic")
                .hasMessageContaining("automatic sharding");
    }

    @Test
    void shardsOfTheClusterAndNamedTopicsAreRelayed() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--cluster-id", "16", "--shard", "1",
                "--shard", "4", "--pubsub-topic", "/waku/2/default-waku/proto"}, Map.of());
        assertThat(c.relay().clusterId()).isEqualTo(16);
        assertThat(c.relay().pubsubTopics()).containsExactly("/waku/2/rs/16/1", "/waku/2/rs/16/4", "/waku/2/default-waku/proto");
        NodeConfig named = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--pubsub-topic", "/waku/2/default-waku/proto"}, Map.of());
        assertThat(named.relay().pubsubTopics()).as("a named topic alone replaces the default shard")
                .containsExactly("/waku/2/default-waku/proto");
    }

    @Test
    void aNodekeyGivesThePeerIdAndStaticNodesAreMultiaddrsWithTheirPeerId() {
        String hex = "1122334455667788990011223344556677889900112233445566778899001122";
        PeerId other = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--nodekey", hex,
                "--staticnode", "/ip4/127.0.0.1/tcp/60001/p2p/" + other, "--ext-multiaddr", "/dns4/node.example.org/tcp/60000"}, Map.of());
        assertThat(PeerId.fromPublicKey(c.nodeKey().publicKey())).isEqualTo(PeerId.fromPublicKey(PrivateKey.secp256k1Hex(hex).publicKey()));
        assertThat(c.host().staticPeers()).containsExactly(Multiaddr.parse("/ip4/127.0.0.1/tcp/60001/p2p/" + other));
        assertThat(c.host().announceAddresses()).containsExactly(Multiaddr.parse("/dns4/node.example.org/tcp/60000"));
    }

    @Test
    void extMultiaddrOnlyAnnouncesTheExternalAddressesAloneAndNeedsOne() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--ext-multiaddr",
                "/ip4/1.2.3.4/tcp/30303", "--ext-multiaddr-only"}, Map.of());
        assertThat(c.host().externalAddressesOnly()).isTrue();
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of()).host().externalAddressesOnly()).isFalse();
        assertRefused("--ext-multiaddr-only", "--ext-multiaddr-only without --ext-multiaddr");
    }

    @Test
    void refusesStaticNodesWithoutPeerIdsAndBadNodekeys() {
        assertRefused("--staticnode 127.0.0.1:60000", "--staticnode");
        assertRefused("--staticnode /ip4/127.0.0.1/tcp/60000", "/p2p/<peer id>");
        assertRefused("--nodekey 1234", "--nodekey");
        assertRefused("--shard 5000", "--shard");
    }

    @Test
    void flagsBeatEnvironmentWhichBeatsTheConfigFile() throws Exception {
        Path file = dir.resolve("node.toml");
        PeerId a = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        PeerId b = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
        Files.writeString(file, "tcp-port = 61000\nrest-port = 9000\nstaticnode = [\"/ip4/127.0.0.1/tcp/1/p2p/" + a
                + "\", \"/ip4/127.0.0.1/tcp/2/p2p/" + b + "\"]\n");
        Map<String, String> env = Map.of("WAKURELAY_REST_PORT", "9100", "WAKURELAY_METRICS_SERVER_PORT", "9200");
        NodeConfig c = NodeMain.parse(new String[]{"--config-file", file.toString(), "--data-dir", dir.toString(),
                "--metrics-server-port", "9300"}, env);
        assertThat(c.host().listenAddress().getPort()).isEqualTo(61000);
        assertThat(c.rest().port()).isEqualTo(9100);
        assertThat(c.metrics().port()).isEqualTo(9300);
        assertThat(c.host().staticPeers()).hasSize(2);
    }

    @Test
    void portsShiftMovesEveryPort() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--ports-shift", "1"}, Map.of());
        assertThat(c.host().listenAddress().getPort()).isEqualTo(60001);
        assertThat(c.rest().port()).isEqualTo(8646);
        assertThat(c.metrics().port()).isEqualTo(8009);
    }

    @Test
    void webSocketIsOffByDefaultOnPort8000AndPortsShiftMovesItAsNwakuDoes() {
        NodeConfig off = NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of());
        assertThat(off.host().webSocket().listen()).isFalse();
        assertThat(off.host().webSocket().port()).isEqualTo(8000);

        NodeConfig on = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--websocket-support", "--ports-shift", "2",
                "--dns4-domain-name", "node.example.org", "--staticnode",
                "/dns4/peer.example.org/tcp/443/wss/p2p/" + PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey())},
                Map.of());
        assertThat(on.host().webSocket().listen()).isTrue();
        assertThat(on.host().webSocket().secure()).isFalse();
        assertThat(on.host().webSocket().port()).isEqualTo(8002);
        assertThat(on.host().dns4DomainName()).isEqualTo("node.example.org");
        assertThat(on.host().staticPeers().get(0).isSecureWebSocket()).isTrue();
    }

    @Test
    void secureWebSocketNeedsBothFilesAndAWrongPathStopsTheStartNamingItsFlag() throws Exception {
        Path missing = dir.resolve("missing.pem");
        Path notPem = Files.writeString(dir.resolve("not.pem"), "hello");
        assertRefused("--websocket-secure-support", "--websocket-secure-support needs --websocket-secure-key-path");
        assertRefused("--websocket-secure-support --websocket-secure-key-path " + notPem + " --websocket-secure-cert-path "
                + missing, "--websocket-secure-cert-path: cannot read the certificate file " + missing);
        assertRefused("--websocket-secure-support --websocket-secure-key-path " + missing + " --websocket-secure-cert-path "
                + notPem, "--websocket-secure-cert-path: " + notPem + " holds no certificate");
        assertRefused("--websocket-support --websocket-port 60000", "port 60000 is used twice");
        assertRefused("--dns4-domain-name bad_name!", "--dns4-domain-name");
    }

    @Test
    void aMissingKeyOrTheKeyOfAnotherCertificateStopsTheStartNamingTheKeyFlag() throws Exception {
        TestCertificates ours = TestCertificates.selfSigned(Files.createDirectory(dir.resolve("ours")));
        TestCertificates other = TestCertificates.selfSigned(Files.createDirectory(dir.resolve("other")));
        Path missing = dir.resolve("missing-key.pem");
        String cert = " --websocket-secure-cert-path " + ours.cert();

        assertRefused("--websocket-secure-support --websocket-secure-key-path " + missing + cert,
                "--websocket-secure-key-path: cannot read the private key file " + missing);
        assertRefused("--websocket-secure-support --websocket-secure-key-path " + other.key() + cert,
                "--websocket-secure-key-path: the private key in " + other.key() + " is not the key of the certificate");
        NodeConfig good = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--websocket-secure-support",
                "--websocket-secure-key-path", ours.key().toString(), "--websocket-secure-cert-path",
                ours.cert().toString()}, Map.of());
        assertThat(good.host().webSocket().listen()).isTrue();
        assertThat(good.host().webSocket().secure()).isTrue();
    }

    @Test
    void keepsTheSamePeerIdAcrossRestarts() {
        PrivateKey made = NodeKey.loadOrCreate(dir); // as the node's first start makes it
        assertThat(made.type()).as("nwaku's node keys are secp256k1").hasToString("SECP256K1");
        String[] args = {"--data-dir", dir.toString()};
        assertThat(NodeMain.parse(args, Map.of()).nodeKey().publicKey()).isEqualTo(made.publicKey());
        assertThat(NodeMain.parse(args, Map.of()).nodeKey().publicKey()).isEqualTo(made.publicKey());
    }

    @Test
    void anOptionRefusedAfterTheDataDirLeavesNoNodeKeyBehind() {
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-durability", "fsync"},
                Map.of())).hasMessageContaining("durability");
        assertThat(dir.resolve(NodeKey.FILE_NAME)).doesNotExist();
    }

    @Test
    void refusesBadConfigurationWithAMessageNamingTheOption() {
        assertRefused("--tcp-port x", "--tcp-port");
        assertRefused("--staticnode nohost", "--staticnode");
        assertRefused("--pubsub-topic /bad", "--pubsub-topic");
        assertRefused("--max-msg-size 12XB", "--max-msg-size");
        assertRefused("--store-message-retention-policy forever", "store");
        assertRefused("--log-level LOUD", "--log-level");
        assertRefused("--rest-port 8008", "used twice");
        assertRefused("--no-such-flag", "no-such-flag");
    }

    @Test
    void anNwakuConfigFileIsReadItsKeysWeHaveAppliedAndTheOthersNamedInOneWarning() throws Exception {
        Path file = dir.resolve("nwaku.toml");
        // the keys of an nwaku-compose style config, some of which this node has no option for
        Files.writeString(file, """
                relay = true
                store = true
                cluster-id = 0
                shard = [0]
                tcp-port = 60123
                rest = true
                rest-address = "127.0.0.1"
                rest-admin = true
                metrics-server = false
                log-level = "NOTICE"
                dns-discovery = true
                discv5-discovery = true
                rln-relay = false
                nat = "extip:192.0.2.1"
                agent-string = "nwaku"
                peer-persistence = false
                data-dir = "%s"
                """.formatted(dir.resolve("data")));
        List<String> warnings = new ArrayList<>();

        NodeConfig config = NodeMain.parse(new String[]{"--config-file", file.toString()}, Map.of(), warnings::add);

        assertThat(config.host().listenAddress().getPort()).isEqualTo(60123);
        assertThat(config.logLevel()).isEqualTo("INFO");
        assertThat(config.rest().admin()).isTrue();
        assertThat(config.metrics()).isNull();
        // dns-discovery is ours too now; as in nwaku, where it is deprecated, it does nothing without a tree URL
        assertThat(config.discovery().dns().enabled()).isFalse();
        // and so is discv5-discovery: an nwaku config file turns it on here as there
        assertThat(config.discovery().discv5().enabled()).isTrue();
        // rln-relay and nat are ours too now
        assertThat(config.rln()).isNull();
        assertThat(config.host().announceAddresses()).containsExactly(
                io.wakurelay.p2p.multiaddr.Multiaddr.parse("/ip4/192.0.2.1/tcp/60123"));
        assertThat(warnings).singleElement().asString()
                .contains("ignoring 2 key(s)", "agent-string", "peer-persistence").doesNotContain("dns-discovery")
                .doesNotContain("discv5-discovery").doesNotContain("rln-relay").doesNotContain("nat");
    }

    @Test
    void anNwakuKeyThatTurnsOnWhatThisNodeCannotDoStopsTheStartAndTheSameKeySetOffIsIgnored() throws Exception {
        Path on = dir.resolve("rln.toml");
        Files.writeString(on, "store-sync = true\nmix = true\nkeep-alive = true\n");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--config-file", on.toString(), "--data-dir", dir.toString()}, Map.of()))
                .hasMessageContaining("does not support store-sync (store synchronisation with other store nodes), "
                        + "mix (the mix protocol)")
                .hasMessageNotContaining("keep-alive");
        Path off = dir.resolve("off.toml");
        Files.writeString(off, "store-sync = false\nmix = \"\"\nkeep-alive = true\n");
        List<String> warnings = new ArrayList<>();
        assertThat(NodeMain.parse(new String[]{"--config-file", off.toString(), "--data-dir", dir.toString()}, Map.of(), warnings::add))
                .isNotNull();
        assertThat(warnings).singleElement().asString().contains("ignoring 2 key(s)", "store-sync", "mix")
                .doesNotContain("keep-alive");
    }

    @Test
    void aMissingConfigFileADataDirThatIsAFileAndBrokenTomlAreRefusedWithTheirCause() throws Exception {
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--config-file", dir.resolve("none.toml").toString()}, Map.of()))
                .hasMessageEndingWith("none.toml does not exist");
        Path file = Files.writeString(dir.resolve("afile"), "");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--data-dir", file.toString()}, Map.of()))
                .hasMessage("--data-dir: " + file + " is a file, not a directory");
        Path broken = Files.writeString(dir.resolve("broken.toml"), "tcp-port = 600\nrest = [tru\n");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--config-file", broken.toString()}, Map.of()))
                .hasMessageContaining("line: 2, column: 9");
    }

    @Test
    void theLogFormatIsTextOrJson() {
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of()).logFormat()).isEqualTo(LogFormat.TEXT);
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--log-format", "json"}, Map.of()).logFormat())
                .isEqualTo(LogFormat.JSON);
        assertRefused("--log-format XML", "--log-format");
    }

    @Test
    void relayFalseMakesAnEdgeNodeWithoutArchiveThatAsksTheServiceNodesGiven() {
        String peer = "/ip4/127.0.0.1/tcp/60000/p2p/16Uiu2HAmVFXtAfSj4EiR7mL2KvL4EE2wztuQgUSBoj2Jx2KeXFLN";
        NodeConfig relaying = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--relay"}, Map.of());
        assertThat(relaying.edge().relay()).isTrue();
        assertThat(relaying.archive()).isNotNull();
        NodeConfig edge = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--relay=false", "--storenode", peer,
                "--lightpushnode", peer}, Map.of());
        assertThat(edge.edge().relay()).isFalse();
        assertThat(edge.archive()).as("nothing reaches an archive without relay").isNull();
        assertThat(edge.edge().storeNode()).hasToString(peer);
        assertThat(edge.edge().lightpushNode()).hasToString(peer);
        assertRefused("--lightpushnode /ip4/127.0.0.1/tcp/60000", "--lightpushnode");
        assertRefused("--storenode nonsense", "--storenode");
    }

    @Test
    void exitsWithCodeTwoBeforeOpeningAnyPort() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = NodeMain.run(new String[]{"--data-dir", dir.toString(), "--tcp-port", String.valueOf(port),
                    "--max-clock-drift", "soon"}, Map.of());
        } finally {
            System.setErr(err);
        }
        assertThat(code).isEqualTo(NodeMain.EXIT_CONFIG);
        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("--max-clock-drift", "--help");
        try (ServerSocket stillFree = new ServerSocket(port)) {
            assertThat(stillFree.isBound()).isTrue();
        }
    }

    @Test
    void storeMessageDbUrlChoosesTheBackendAsNwakusFlagDoes() throws Exception {
        NodeConfig embedded = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url", ""}, Map.of());
        assertThat(embedded.archive()).isInstanceOf(RocksConfig.class);
        assertThat(((RocksConfig) embedded.archive()).dataDir()).isEqualTo(dir.resolve("store"));
        NodeConfig rocks = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url",
                "rocksdb://" + dir.resolve("elsewhere")}, Map.of());
        assertThat(((RocksConfig) rocks.archive()).dataDir()).isEqualTo(dir.resolve("elsewhere"));

        NodeConfig pg = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url",
                "postgres://waku:secret@db.example:5433/store", "--store-max-num-db-connections", "12",
                "--store-message-db-statement-timeout", "5s", "--store-message-db-start-wait", "0s"}, Map.of());
        PostgresConfig postgres = (PostgresConfig) pg.archive();
        assertThat(postgres.describe()).isEqualTo("db.example:5433/store as waku");
        assertThat(postgres.password()).isEqualTo("secret");
        assertThat(postgres.maxConnections()).isEqualTo(12);
        assertThat(postgres.statementTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(postgres.startWait()).isZero();
        assertThat(pg.toString()).doesNotContain("secret");
    }

    @Test
    void rocksDbCommitsAPartialBatchAtOnceWhilePostgresWaitsForCompany() throws Exception {
        // ADR 0082: group commit with no window for RocksDB; PostgreSQL keeps its window (a commit is a round trip)
        NodeConfig rocks = NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of());
        assertThat(rocks.archive().core().maxBatchDelay()).isZero();
        NodeConfig pg = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url",
                "postgres://waku:secret@db.example:5433/store"}, Map.of());
        assertThat(pg.archive().core().maxBatchDelay()).isEqualTo(PostgresConfig.BATCH_DELAY).isPositive();
    }

    @Test
    void thePostgresPasswordComesFromTheUrlElseAFileElseTheEnvironment() throws Exception {
        Path file = dir.resolve("pg-password");
        Files.writeString(file, "from-file\n");
        String url = "postgres://waku@db:5432/store";
        Map<String, String> env = Map.of("WAKURELAY_STORE_MESSAGE_DB_PASSWORD", "from-env");
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url", url,
                "--store-message-db-password-file", file.toString()}, env).archive()).extracting(c -> ((PostgresConfig) c).password())
                .isEqualTo("from-file");
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url", url}, env)
                .archive()).extracting(c -> ((PostgresConfig) c).password()).isEqualTo("from-env");
        assertThat(NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--store-message-db-url",
                "postgres://waku:in-url@db:5432/store"}, env).archive()).extracting(c -> ((PostgresConfig) c).password())
                .isEqualTo("in-url");
    }

    @Test
    void sqliteAndOtherStoresAreRefusedSayingWhatIsSupported() {
        assertRefused("--store-message-db-url sqlite://store.sqlite3", "--store-message-db-url: sqlite is not supported");
        assertRefused("--store-message-db-url sqlite://store.sqlite3", "postgres://user:password@host:port/database");
        assertRefused("--store-message-db-url mongodb://x@y/z", "unknown store database scheme 'mongodb'");
        assertRefused("--store-message-db-url postgres://waku:pw@db:5432/store --store-max-num-db-connections 1",
                "connections must be 3..1000");
    }

    private void assertRefused(String args, String mention) {
        String[] parts = (args + " --data-dir " + dir).split(" ");
        assertThatThrownBy(() -> NodeMain.parse(parts, Map.of())).hasMessageContaining(mention);
    }
}
