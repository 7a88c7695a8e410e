package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.echo.EchoClient;
import io.wakurelay.p2p.echo.EchoProtocol;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
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
 * Our host against a real js-libp2p 2.8 peer (interop/libp2p/peer.mjs), in both directions and with each muxer:
 * Noise proves both peer ids, identify tells each side the other's protocols, pings pass both ways, the
 * connection is still up after 30 s of ping traffic, and 10 MB echo intact both ways.
 */
@Tag("process")
@Tag("slow")
class JsLibp2pInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long ECHO_BYTES = 10_000_000;
    private final TestHosts hosts = new TestHosts();
    private final List<JsPeer> peers = new ArrayList<>();

    @AfterEach
    void close() {
        peers.forEach(JsPeer::close);
        hosts.close();
    }

    private record Pair(String muxer, boolean javaDials, Host host, JsPeer js, Connection connection) {
    }

    @Test
    void bothDirectionsAndBothMuxersHandshakeIdentifyPingStayUpAndEchoTenMegabytes() throws InterruptedException {
        List<Pair> pairs = new ArrayList<>();
        for (String muxer : List.of(YamuxSession.PROTOCOL_ID, MplexSession.PROTOCOL_ID)) {
            for (boolean javaDials : List.of(true, false)) {
                pairs.add(connect(muxer, javaDials));
            }
        }
        for (Pair p : pairs) {
            String what = p.muxer + (p.javaDials ? ", Java dials" : ", JS dials");
            assertThat(p.connection.muxer()).as(what).isEqualTo(p.muxer);
            assertThat(p.connection.remotePeer()).as(what).isEqualTo(PeerId.parse(p.js.peerId()));
            JsonNode opened = p.js.awaitEvent("connection:open", e -> e.path("peerId").asText().equals(p.host.peerId().toString()), WAIT);
            assertThat(opened.path("muxer").asText()).as(what).isEqualTo(p.muxer);
            assertThat(opened.path("encryption").asText()).as(what).isEqualTo("/noise");

            JsonNode identified = p.js.awaitEvent("identify", e -> e.path("peerId").asText().equals(p.host.peerId().toString()), WAIT);
            assertThat(identified.path("agentVersion").asText()).as(what).startsWith("wakurelay");
            assertThat(texts(identified.path("protocols"))).as(what)
                    .contains(EchoProtocol.ID, PingService.PROTOCOL, IdentifyService.PROTOCOL);
            Eventually.until(() -> p.host.peer(p.connection.remotePeer()).map(r -> r.protocols().contains(EchoProtocol.ID)).orElse(false),
                    WAIT);
            assertThat(p.host.peer(p.connection.remotePeer()).orElseThrow().protocols()).as(what)
                    .contains(PingService.PROTOCOL, IdentifyService.PROTOCOL);

            JsonNode ping = p.js.call("ping", Map.of("peerId", p.host.peerId().toString()), WAIT);
            assertThat(ping.path("rttMs").asDouble()).as(what).isGreaterThanOrEqualTo(0);

            JsonNode jsEcho = p.js.call("echo", Map.of("peerId", p.host.peerId().toString(), "bytes", ECHO_BYTES), Duration.ofSeconds(120));
            assertThat(jsEcho.path("receivedBytes").asLong()).as(what).isEqualTo(ECHO_BYTES);
            assertThat(jsEcho.path("sha256Received").asText()).as(what).isEqualTo(jsEcho.path("sha256Sent").asText());

            EchoClient.Result javaEcho = EchoClient.run(p.connection, ECHO_BYTES).block(Duration.ofSeconds(120));
            assertThat(javaEcho.bytes()).as(what).isEqualTo(ECHO_BYTES);
            assertThat(javaEcho.receivedSha256()).as(what).isEqualTo(javaEcho.sentSha256());
        }

        // 30 s with pings every second from our side (and js-libp2p's own connection monitor): nobody drops anybody
        Thread.sleep(30_000);
        for (Pair p : pairs) {
            assertThat(p.connection.isOpen()).as(p.muxer + " Java dials " + p.javaDials).isTrue();
            assertThat(p.js.events("connection:close")).isEmpty();
            double pings = hosts.registry(p.host).find("libp2p.ping.rtt").timer().count();
            assertThat(pings).as("pings answered by js-libp2p").isGreaterThanOrEqualTo(20);
        }
    }

    private Pair connect(String muxer, boolean javaDials) {
        String jsMuxer = muxer.equals(YamuxSession.PROTOCOL_ID) ? "yamux" : "mplex";
        Host host = hosts.start(b -> b.muxers(List.of(muxer)).pingInterval(Duration.ofSeconds(1)).agentVersion("wakurelay/interop"),
                PrivateKey.generateSecp256k1());
        JsPeer js = JsPeer.start(JsPeer.Script.PEER, List.of("--muxers", jsMuxer, "--timeout-s", "240"));
        peers.add(js);
        Connection connection;
        if (javaDials) {
            connection = host.dial(Multiaddr.parse(js.addrs().get(0))).block(WAIT);
        } else {
            js.call("dial", Map.of("addr", TestHosts.address(host).toString()), WAIT);
            PeerId jsId = PeerId.parse(js.peerId());
            Eventually.until(() -> host.connection(jsId).isPresent(), WAIT);
            connection = host.connection(jsId).orElseThrow();
        }
        assertThat(connection.isOutbound()).isEqualTo(javaDials);
        return new Pair(muxer, javaDials, host, js, connection);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
