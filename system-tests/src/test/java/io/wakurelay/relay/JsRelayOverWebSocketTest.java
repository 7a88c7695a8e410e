package io.wakurelay.relay;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageHasher;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waku relay over WebSocket against a js-libp2p gossipsub peer configured as js-waku configures it, with
 * {@code @libp2p/websockets}: it dials our node's {@code /ws} address with yamux and with mplex, and our node dials
 * its {@code /ws} address; messages cross both ways, each side computing the same RFC 14 hash.
 */
@Tag("process")
class JsRelayOverWebSocketTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final List<TestNode> nodes = new ArrayList<>();
    private final List<JsPeer> js = new ArrayList<>();
    private final MessageHasher hasher = new MessageHasher(new PathCounters());

    @AfterEach
    void close() {
        js.forEach(JsPeer::close);
        nodes.forEach(TestNode::close);
    }

    @Test
    void messagesCrossBothWaysOverWebSocketWithTheSameHashWhoeverDialsAndWithEitherMuxer() throws Exception {
        int i = 0;
        for (String jsMuxer : List.of("yamux", "mplex", "dialled")) {
            TestNode ours = new TestNode(i, TestNode.fastConfig(), PrivateKey.generateSecp256k1(), 0,
                    b -> b.webSocket(WebSocketConfig.DEFAULTS.toBuilder().listen(true).port(0).build()));
            nodes.add(ours);
            boolean ourDial = jsMuxer.equals("dialled");
            JsPeer peer = JsPeer.start(JsPeer.Script.PEER, List.of("--gossipsub", "--topics", Messages.TOPIC,
                    "--muxers", ourDial ? "yamux,mplex" : jsMuxer, "--listen", ourDial ? "/ip4/127.0.0.1/tcp/0/ws" : "none",
                    "--timeout-s", "120"));
            js.add(peer);
            if (ourDial) {
                ours.host.dial(Multiaddr.parse(peer.addrs().get(0))).block(WAIT);
            } else {
                Multiaddr ws = ours.host.listenAddresses().stream().filter(Multiaddr::isWebSocket).findFirst().orElseThrow();
                peer.call("dial", Map.of("addr", ws.toString()), WAIT);
            }
            PeerId jsId = PeerId.parse(peer.peerId());
            Eventually.until(() -> ours.relay.mesh().getOrDefault(Messages.TOPIC, List.of()).contains(jsId), WAIT,
                    () -> ours.relay.mesh().toString());
            assertThat(ours.host.connection(jsId).orElseThrow().transport()).as(jsMuxer).isEqualTo(Transport.WS);
            Eventually.until(() -> peer.call("mesh", Map.of("topic", Messages.TOPIC), WAIT).path("peers").toString()
                    .contains(ours.host.peerId().toString()), WAIT, () -> "js mesh");

            WakuMessage fromJs = Messages.message(10 + i, 2_000);
            peer.call("publish", Map.of("topic", Messages.TOPIC, "data",
                    Base64.getEncoder().encodeToString(fromJs.toByteArray())), WAIT);
            MessageHash jsHash = hasher.hash(Messages.TOPIC, fromJs);
            Eventually.until(() -> ours.received.containsKey(jsHash), WAIT, ours.received::toString);

            WakuMessage fromUs = Messages.message(20 + i, 150_000);
            MessageHash ourHash = ours.relay.publish(Messages.TOPIC, fromUs).block(WAIT).hash();
            JsonNode got = peer.awaitEvent("message", e -> true, WAIT);
            WakuMessage received = WakuMessage.parseFrom(Base64.getDecoder().decode(got.path("data").asText()));
            assertThat(hasher.hash(got.path("topic").asText(), received)).as(jsMuxer).isEqualTo(ourHash);
            i++;
        }
    }
}
