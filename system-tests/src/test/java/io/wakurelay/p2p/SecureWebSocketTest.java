package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.p2p.ws.WebSocketTransport;
import io.wakurelay.testkit.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** libp2p over WebSocket in TLS ({@code /wss}) with a certificate made by openssl (hence "process"). */
@Tag("process")
class SecureWebSocketTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final TestHosts hosts = new TestHosts();

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        hosts.close();
    }

    private Host listener(TestCertificates certs) {
        return hosts.start(b -> b.webSocket(WebSocketConfig.DEFAULTS.toBuilder().listen(true).port(0)
                .certPath(certs.cert()).keyPath(certs.key()).build()));
    }

    private Host trustingDialer(TestCertificates certs) {
        return hosts.start(b -> b.webSocket(WebSocketConfig.DEFAULTS.toBuilder()
                .trustedCertificates(List.of(certs.cert())).build()));
    }

    @Test
    void aDialerThatTrustsTheCertificateConnectsOverWssByIpByNameAndBySni() {
        TestCertificates certs = TestCertificates.selfSigned(dir);
        Host listener = listener(certs);
        Multiaddr announced = TestHosts.webSocketAddress(listener);
        int port = listener.webSocketAddress().getPort();
        assertThat(announced.toString()).startsWith("/ip4/127.0.0.1/tcp/" + port + "/wss/p2p/");
        String id = "/p2p/" + listener.peerId();
        for (String address : List.of(announced.toString(), "/dns4/localhost/tcp/" + port + "/wss" + id,
                "/ip4/127.0.0.1/tcp/" + port + "/tls/sni/localhost/ws" + id)) {
            Host dialer = trustingDialer(certs);

            Connection connection = dialer.dial(Multiaddr.parse(address)).block(WAIT);

            assertThat(connection.transport()).as(address).isEqualTo(Transport.WSS);
            EchoClient.Result echo = EchoClient.run(connection, 300_000).block(WAIT);
            assertThat(echo.receivedSha256()).as(address).isEqualTo(echo.sentSha256());
        }
        assertThat(hosts.registry(listener).get("libp2p.connections").tag("transport", "wss").tag("direction", "inbound")
                .gauges().stream().mapToDouble(g -> g.value()).sum()).isEqualTo(3);
    }

    @Test
    void aDialerThatDoesNotTrustTheCertificateFailsItsTlsHandshake() {
        Host listener = listener(TestCertificates.selfSigned(dir));
        Host dialer = hosts.start(); // the JDK's trust store: no self-signed certificate in it

        assertThatThrownBy(() -> dialer.dial(TestHosts.webSocketAddress(listener)).block(WAIT))
                .isInstanceOf(HandshakeException.class);
        assertThat(TestHosts.count(hosts.registry(dialer), "libp2p.handshakes", "outcome", "tls_failed", Transport.WSS))
                .isEqualTo(1);
    }

    @Test
    void aCertificateOrKeyThatCannotBeReadStopsTheStartNamingTheFile() throws Exception {
        TestCertificates certs = TestCertificates.selfSigned(dir);
        TestCertificates other = TestCertificates.selfSigned(Files.createDirectory(dir.resolve("other")));
        Path missing = dir.resolve("missing.pem");
        WebSocketConfig tls = WebSocketConfig.DEFAULTS.toBuilder().listen(true).build();

        assertThatThrownBy(() -> WebSocketTransport.create(tls.toBuilder().certPath(missing).keyPath(certs.key()).build(), null))
                .hasMessageContaining("cannot read the certificate file " + missing);
        assertThatThrownBy(() -> WebSocketTransport.create(tls.toBuilder().certPath(certs.cert()).keyPath(certs.cert()).build(), null))
                .hasMessageContaining(certs.cert() + " holds no PEM private key");
        assertThatThrownBy(() -> WebSocketTransport.create(tls.toBuilder().certPath(certs.cert()).keyPath(other.key()).build(), null))
                .hasMessageContaining("the private key in " + other.key() + " is not the key of the certificate");
    }
}
