package io.wakurelay.node;

import io.wakurelay.node.config.NodeOptions;
import io.wakurelay.relay.RateLimits;
import io.wakurelay.relay.TlsConfig;
import io.wakurelay.testkit.TestCertificates;
import io.wakurelay.testkit.TestCertificates.NodeFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeCommandLineTest {
    @TempDir
    Path dir;

    @Test
    void helpListsEveryOptionWithItsDefault() {
        String help = new CommandLine(new NodeOptions()).getUsageMessage();
        for (CommandLine.Model.OptionSpec option : new CommandLine(new NodeOptions()).getCommandSpec().options()) {
            assertThat(help).contains(option.longestName());
            if (option.defaultValue() != null) {
                assertThat(help).contains("Default: " + option.defaultValue());
            }
        }
        assertThat(help).contains("--tcp-port", "Default: 60000", "--rest-port", "Default: 8645", "--metrics-server-port",
                "Default: 8008", "--store-message-retention-policy", "--max-msg-size", "Default: 150KiB", "--staticnode");
    }

    @Test
    void defaultsAreNwakusPortsAndLocalOnlyApis() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString()}, Map.of());
        assertThat(c.relay().listenAddress().getPort()).isEqualTo(60000);
        assertThat(c.rest().address()).isEqualTo("127.0.0.1");
        assertThat(c.rest().port()).isEqualTo(8645);
        assertThat(c.rest().admin()).isFalse();
        assertThat(c.metrics().address()).isEqualTo("127.0.0.1");
        assertThat(c.metrics().port()).isEqualTo(8008);
        assertThat(c.relay().limits().maxMessageSize()).isEqualTo(153_600);
        assertThat(c.relay().pubsubTopics()).containsExactly("/waku/2/rs/0/0");
        assertThat(c.relay().tls()).as("plaintext peer connections unless TLS files are given").isNull();
        assertThat(c.relay().rateLimits()).isEqualTo(RateLimits.DEFAULTS);
    }

    @Test
    void tlsAndRateLimitFlagsReachTheRelayConfiguration() {
        NodeFiles files = TestCertificates.authority("cli-ca").issue(dir.resolve("certs"), "node");
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--tls-cert", files.certificateChain().toString(),
                "--tls-key", files.privateKey().toString(), "--tls-trust", files.trustedCertificates().toString(),
                "--tls-require-client-auth", "false", "--peer-publish-rate", "500", "--peer-publish-byte-rate", "10MiB",
                "--peer-control-rate", "0"}, Map.of());

        assertThat(c.relay().tls()).isEqualTo(new TlsConfig(files.certificateChain(), files.privateKey(),
                files.trustedCertificates(), false));
        assertThat(c.relay().rateLimits()).isEqualTo(new RateLimits(500, 10L << 20, 0));
    }

    @Test
    void refusesTlsFilesThatAreMissingIncompleteOrWrong() {
        NodeFiles files = TestCertificates.authority("cli-ca").issue(dir.resolve("certs"), "node");
        String cert = files.certificateChain().toString();
        String key = files.privateKey().toString();
        String trust = files.trustedCertificates().toString();

        assertRefused("--tls-cert " + cert, "--tls-cert, --tls-key and --tls-trust go together");
        assertRefused("--tls-cert " + dir.resolve("nope.pem") + " --tls-key " + key + " --tls-trust " + trust,
                "--tls-cert: " + dir.resolve("nope.pem") + " is not a readable file");
        assertRefused("--tls-cert " + cert + " --tls-key " + cert + " --tls-trust " + trust, "private key");
        assertRefused("--peer-publish-byte-rate 1KB", "publish bytes per second must be 0 (unlimited) or at least the max message size");
        assertRefused("--peer-control-rate -1", "control frames per second");
    }

    @Test
    void aMissingTlsFileExitsWithCodeTwoBeforeOpeningAnyPort() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Path missing = dir.resolve("missing.pem");
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = NodeMain.run(new String[]{"--data-dir", dir.toString(), "--tcp-port", String.valueOf(port),
                    "--tls-cert", missing.toString(), "--tls-key", missing.toString(), "--tls-trust", missing.toString()}, Map.of());
        } finally {
            System.setErr(err);
        }
        assertThat(code).isEqualTo(NodeMain.EXIT_CONFIG);
        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("--tls-cert", missing.toString());
        try (ServerSocket stillFree = new ServerSocket(port)) {
            assertThat(stillFree.isBound()).isTrue();
        }
    }

    @Test
    void flagsBeatEnvironmentWhichBeatsTheConfigFile() throws Exception {
        Path file = dir.resolve("node.toml");
        Files.writeString(file, "tcp-port = 61000\nrest-port = 9000\nstaticnode = [\"127.0.0.1:1\", \"127.0.0.1:2\"]\n");
        Map<String, String> env = Map.of("WAKURELAY_REST_PORT", "9100", "WAKURELAY_METRICS_SERVER_PORT", "9200");
        NodeConfig c = NodeMain.parse(new String[]{"--config-file", file.toString(), "--data-dir", dir.toString(),
                "--metrics-server-port", "9300"}, env);
        assertThat(c.relay().listenAddress().getPort()).isEqualTo(61000);
        assertThat(c.rest().port()).isEqualTo(9100);
        assertThat(c.metrics().port()).isEqualTo(9300);
        assertThat(c.relay().staticPeers()).hasSize(2);
    }

    @Test
    void portsShiftMovesEveryPort() {
        NodeConfig c = NodeMain.parse(new String[]{"--data-dir", dir.toString(), "--ports-shift", "1"}, Map.of());
        assertThat(c.relay().listenAddress().getPort()).isEqualTo(60001);
        assertThat(c.rest().port()).isEqualTo(8646);
        assertThat(c.metrics().port()).isEqualTo(8009);
    }

    @Test
    void keepsTheSameNodeIdAcrossRestarts() {
        String[] args = {"--data-dir", dir.toString()};
        assertThat(NodeMain.parse(args, Map.of()).relay().nodeId()).isEqualTo(NodeMain.parse(args, Map.of()).relay().nodeId());
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
    void refusesUnknownConfigFileKeys() throws Exception {
        Path file = dir.resolve("bad.toml");
        Files.writeString(file, "tcp-prot = 1\n");
        assertThatThrownBy(() -> NodeMain.parse(new String[]{"--config-file", file.toString()}, Map.of()))
                .hasMessageContaining("unknown option 'tcp-prot'");
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

    private void assertRefused(String args, String mention) {
        String[] parts = (args + " --data-dir " + dir).split(" ");
        assertThatThrownBy(() -> NodeMain.parse(parts, Map.of())).hasMessageContaining(mention);
    }
}
