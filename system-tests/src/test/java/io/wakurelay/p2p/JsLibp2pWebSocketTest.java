package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Transport;
import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.mux.MplexSession;
import io.wakurelay.p2p.mux.YamuxSession;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our host against js-libp2p 2.8 with {@code @libp2p/websockets} 9.2 (what js-waku 0.0.36 runs in browsers), over
 * {@code /ws} in both directions and with each muxer: the peer ids proven, the WebSocket address announced by
 * identify, and 2 MB echoed intact both ways (js-libp2p sends each Noise message as one binary frame).
 */
@Tag("process")
@Tag("slow")
class JsLibp2pWebSocketTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long ECHO_BYTES = 2_000_000;
    private final TestHosts hosts = new TestHosts();
    private final List<JsPeer> peers = new ArrayList<>();

    @AfterEach
    void close() {
        peers.forEach(JsPeer::close);
        hosts.close();
    }

    @Test
    void jsLibp2pAndOurHostConnectOverWebSocketBothWaysWithEitherMuxerAndEchoTwoMegabytes() {
        for (String muxer : List.of(YamuxSession.PROTOCOL_ID, MplexSession.PROTOCOL_ID)) {
            for (boolean javaDials : List.of(true, false)) {
                String what = muxer + (javaDials ? ", Java dials" : ", JS dials");
                Host host = hosts.start(b -> WebSocketTransportTest.listening(b).muxers(List.of(muxer)),
                        PrivateKey.generateSecp256k1());
                JsPeer js = JsPeer.start(JsPeer.Script.PEER, List.of("--muxers", muxer.contains("yamux") ? "yamux" : "mplex",
                        "--listen", "/ip4/127.0.0.1/tcp/0/ws", "--timeout-s", "120"));
                peers.add(js);
                assertThat(js.addrs().get(0)).contains("/ws/p2p/");
                Connection connection;
                if (javaDials) {
                    connection = host.dial(Multiaddr.parse(js.addrs().get(0))).block(WAIT);
                } else {
                    js.call("dial", Map.of("addr", TestHosts.webSocketAddress(host).toString()), WAIT);
                    PeerId jsId = PeerId.parse(js.peerId());
                    Eventually.until(() -> host.connection(jsId).isPresent(), WAIT);
                    connection = host.connection(jsId).orElseThrow();
                }
                assertThat(connection.transport()).as(what).isEqualTo(Transport.WS);
                assertThat(connection.muxer()).as(what).isEqualTo(muxer);
                assertThat(connection.remotePeer()).as(what).isEqualTo(PeerId.parse(js.peerId()));
                JsonNode opened = js.awaitEvent("connection:open",
                        e -> e.path("peerId").asText().equals(host.peerId().toString()), WAIT);
                if (!javaDials) { // js-libp2p writes an inbound WebSocket's remote address without /ws
                    assertThat(opened.path("remoteAddr").asText()).as(what).contains("/ws");
                }
                JsonNode identified = js.awaitEvent("identify",
                        e -> e.path("peerId").asText().equals(host.peerId().toString()), WAIT);
                assertThat(identified.path("listenAddrs").toString()).as(what)
                        .contains(TestHosts.webSocketAddress(host).withoutPeerId().toString());

                JsonNode jsEcho = js.call("echo", Map.of("peerId", host.peerId().toString(), "bytes", ECHO_BYTES), WAIT);
                assertThat(jsEcho.path("receivedBytes").asLong()).as(what).isEqualTo(ECHO_BYTES);
                assertThat(jsEcho.path("sha256Received").asText()).as(what).isEqualTo(jsEcho.path("sha256Sent").asText());
                EchoClient.Result javaEcho = EchoClient.run(connection, ECHO_BYTES).block(WAIT);
                assertThat(javaEcho.receivedSha256()).as(what).isEqualTo(javaEcho.sentSha256());
                assertThat(TestHosts.count(hosts.registry(host), "libp2p.handshakes", "outcome", "websocket_frame_too_large"))
                        .isZero();
            }
        }
    }
}
