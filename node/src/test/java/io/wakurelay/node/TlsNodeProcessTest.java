package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Hello;
import io.wakurelay.relay.PublishResult;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.relay.TlsConfig;
import io.wakurelay.testkit.TestCertificates;
import io.wakurelay.testkit.TestCertificates.NodeFiles;
import io.wakurelay.testkit.TestMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node process started with the TLS flags: a peer holding a certificate of the same authority connects and its
 * message is archived; a plaintext peer is refused by the TLS handshake and counted in /metrics.
 */
class TlsNodeProcessTest {
    private static final List<String> JVM = List.of("-Xmx256m", "-Dio.netty.leakDetection.level=paranoid");

    @TempDir
    Path dir;

    @Test
    void aNodeStartedWithTlsFlagsServesTrustedPeersAndRefusesPlaintextOnes() throws Exception {
        TestCertificates.Authority ca = TestCertificates.authority("node-test-ca");
        NodeFiles nodeFiles = ca.issue(dir.resolve("certs"), "node");
        NodeFiles peerFiles = ca.issue(dir.resolve("certs"), "peer");
        List<String> args = List.of("--data-dir", dir.resolve("data").toString(), "--listen-address", "127.0.0.1",
                "--tcp-port", "0", "--rest-port", "0", "--metrics-server-port", "0",
                "--tls-cert", nodeFiles.certificateChain().toString(), "--tls-key", nodeFiles.privateKey().toString(),
                "--tls-trust", nodeFiles.trustedCertificates().toString());

        try (NodeProcess node = NodeProcess.start(JVM, args, Duration.ofSeconds(60), dir.resolve("node.log"))) {
            assertThat(String.join("\n", node.output())).contains("tls on");
            Http metrics = new Http(node.metricsAddress());
            RelayConfig peerConfig = RelayConfig.defaults("tls-peer", null)
                    .withTls(TlsConfig.mutual(peerFiles.certificateChain(), peerFiles.privateKey(), peerFiles.trustedCertificates()))
                    .withStaticPeers(List.of(node.peerAddress()));
            Relay peer = Relay.start(peerConfig, new PathCounters(), new SimpleMeterRegistry());
            try {
                Eventually.until(Duration.ofSeconds(30), "the TLS peer is connected", () ->
                        Http.metric(metrics.get("/metrics").body(), "waku_relay_peers_connected{direction=\"inbound\"}") == 1);
                PublishResult sent = peer.publish(TestMessages.PUBSUB_TOPIC,
                        TestMessages.message(1, 1000, TestMessages.nowNanos())).block(Duration.ofSeconds(10));
                Http rest = new Http(node.restAddress());
                Eventually.until(Duration.ofSeconds(20), "the node archived the peer's message", () -> {
                    JsonNode page = rest.get("/store/v3/messages?hashes=" + sent.hash().toHex()).json();
                    return page.get("messages").size() == 1;
                });
            } finally {
                peer.close();
            }

            try (Socket plaintext = new Socket(node.peerAddress().getAddress(), node.peerAddress().getPort())) {
                plaintext.setSoTimeout(10_000);
                OutputStream out = plaintext.getOutputStream();
                Frame.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(1).setNodeId("plain")).build().writeDelimitedTo(out);
                out.flush();
                InputStream in = plaintext.getInputStream();
                assertThat(in.readAllBytes()).as("no Hello, no Goodbye: nothing of the protocol in plaintext").isEmpty();
            }
            Eventually.until(Duration.ofSeconds(20), "the refusal is counted", () ->
                    Http.metric(metrics.get("/metrics").body(), "waku_relay_connections_rejected_total{reason=\"tls\"}") == 1);
            String exposition = metrics.get("/metrics").body();
            assertThat(Http.metric(exposition, "waku_decodes_total")).as("only the TLS peer's message was decoded").isEqualTo(1);
        }
    }
}
