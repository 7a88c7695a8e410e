package io.wakurelay.p2p;

import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.testkit.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 43, N5: a TLS 1.2 client renegotiated on {@code /wss} as often as it liked (375 full renegotiations a second
 * from one connection, 81 % of a core). A client's renegotiation now ends its connection, counted.
 */
class TlsRenegotiationTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final TestHosts hosts = new TestHosts();
    private SelfSignedCertificate cert;

    @AfterEach
    void close() {
        hosts.close();
        if (cert != null) {
            cert.delete();
        }
    }

    @Test
    void aClientThatRenegotiatesIsDisconnectedAndCountedWhileItsFirstHandshakeWorks() throws Exception {
        cert = new SelfSignedCertificate("localhost");
        Host target = hosts.start(x -> x.webSocket(WebSocketConfig.DEFAULTS.toBuilder().listen(true).port(0)
                .certPath(cert.certificate().toPath()).keyPath(cert.privateKey().toPath()).build()));
        InetSocketAddress address = target.webSocketAddress();

        AtomicInteger handshakes = new AtomicInteger();
        boolean closedByHost;
        try (SSLSocket socket = tls12(address)) {
            socket.addHandshakeCompletedListener(e -> handshakes.incrementAndGet());
            socket.startHandshake();
            socket.getOutputStream().write(RawWebSocket.upgradeRequest("/", address.getPort())
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(head(socket.getInputStream())).as("the upgrade over TLS 1.2").startsWith("HTTP/1.1 101");

            socket.startHandshake(); // a renegotiation: a new ClientHello under the session's keys
            socket.setSoTimeout(3000);
            try {
                // the client completes the renegotiation as it reads; the host sends nothing else until the libp2p
                // upgrade, so a host that renegotiated leaves this read waiting (a closing host may send a close
                // frame first)
                while (socket.getInputStream().read() >= 0) {
                    // the close frame
                }
                closedByHost = true;
            } catch (SocketTimeoutException e) {
                closedByHost = false;
            } catch (IOException e) {
                closedByHost = true;
            }
        }
        System.out.printf("TlsRenegotiationTest: refused %.0f, handshakes %s%n", hosts.registry(target)
                .find("libp2p.websocket.tls.renegotiations.refused").counter().count(), hosts.registry(target)
                .find("libp2p.handshakes").counters().stream().filter(c -> c.count() > 0)
                .map(c -> c.getId().getTag("outcome") + "=" + c.count()).toList());
        assertThat(handshakes).as("TLS handshakes completed: the first only").hasValue(1);
        assertThat(closedByHost).as("the host closed the connection").isTrue();
        Eventually.until("the refusal counted", WAIT, () -> hosts.registry(target)
                .find("libp2p.websocket.tls.renegotiations.refused").counter().count() == 1);
        assertThat(TestHosts.count(hosts.registry(target), "libp2p.handshakes", "outcome", "tls_renegotiation"))
                .isEqualTo(1);
    }

    private static SSLSocket tls12(InetSocketAddress address) throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.2");
        context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(address.getAddress(), address.getPort());
        socket.setEnabledProtocols(new String[]{"TLSv1.2"});
        socket.setSoTimeout((int) WAIT.toMillis());
        return socket;
    }

    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
