package io.wakurelay.testkit;

import static io.wakurelay.testkit.JsPeer.Script.LIGHT_NODE;
import static io.wakurelay.testkit.JsPeer.Script.PEER;
import static io.wakurelay.testkit.JsPeer.Script.RELAY_NODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opentest4j.AssertionFailedError;

/**
 * Proves the interop harness JavaScript to JavaScript, so that a failure of a later test against our node points at
 * our node: the bare libp2p peers connect on each muxer, identify, ping and echo; gossipsub configured as js-waku
 * configures it carries Waku messages, also with a real js-waku relay node; the light node's Store, lightpush and
 * filter commands work against a scripted peer and fail clearly without one; the processes end as promised.
 */
@Tag("process")
@Tag("slow")
class JsPeerHarnessTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String SHARD_0 = "/waku/2/rs/0/0";
    private static final String CONTENT_TOPIC = "/wakurelay/1/harness/proto";
    private static final int TEN_MEGABYTES = 10 * 1024 * 1024;
    private static final Map<String, String> MUXER_IDS = Map.of("yamux", "/yamux/1.0.0", "mplex", "/mplex/6.7.0");
    /** A well-formed peer id of no running peer. */
    private static final String SOME_PEER_ID = "12D3KooWNre9q5v8sj5mVditiQsYgq544SXEm8qJkJKJbwYs9gmB";
    private static final String STORE = "/vac/waku/store-query/3.0.0";
    private static final String LIGHTPUSH = "/vac/waku/lightpush/3.0.0";
    private static final String FILTER_SUBSCRIBE = "/vac/waku/filter-subscribe/2.0.0-beta1";
    private static final String FILTER_PUSH = "/vac/waku/filter-push/2.0.0-beta1";

    @ParameterizedTest(name = "over {0} alone")
    @ValueSource(strings = {"yamux", "mplex"})
    void twoBareLibp2pPeersIdentifyEachOtherPingAndEchoTenMegabytesBothWays(String muxer) {
        try (JsPeer a = JsPeer.start(PEER, "--muxers", muxer);
             JsPeer b = JsPeer.start(PEER, "--muxers", muxer)) {
            JsonNode dialed = b.call("dial", Map.of("addr", a.addrs().get(0)));
            assertThat(dialed.path("peerId").asText()).isEqualTo(a.peerId());
            assertThat(dialed.path("muxer").asText()).isEqualTo(MUXER_IDS.get(muxer));
            assertThat(dialed.path("encryption").asText()).isEqualTo("/noise");
            JsonNode inbound = a.awaitEvent("connection:open", e -> isFrom(e, b), WAIT);
            assertThat(inbound.path("direction").asText()).isEqualTo("inbound");
            assertThat(inbound.path("muxer").asText()).isEqualTo(MUXER_IDS.get(muxer));

            JsonNode aAsSeenByB = b.awaitEvent("identify", e -> isFrom(e, a), WAIT);
            JsonNode bAsSeenByA = a.awaitEvent("identify", e -> isFrom(e, b), WAIT);
            for (JsonNode identified : List.of(aAsSeenByB, bAsSeenByA)) {
                assertThat(texts(identified.path("protocols")))
                        .contains("/ipfs/id/1.0.0", "/ipfs/ping/1.0.0", "/wakurelay/echo/1.0.0");
                assertThat(identified.path("agentVersion").asText()).startsWith("js-libp2p/2.8.11");
            }
            assertThat(texts(b.call("identify", Map.of("peerId", a.peerId())).path("addrs")))
                    .contains(a.addrs().get(0).replace("/p2p/" + a.peerId(), ""));

            assertThat(b.call("ping", Map.of("peerId", a.peerId())).path("rttMs").isNumber()).isTrue();
            assertThat(a.call("ping", Map.of("peerId", b.peerId())).path("rttMs").isNumber()).isTrue();

            String expected = EchoData.sha256Hex(EchoData.DEFAULT_SEED, TEN_MEGABYTES);
            for (JsPeer[] fromTo : List.of(new JsPeer[] {b, a}, new JsPeer[] {a, b})) {
                JsonNode echo = fromTo[0].call("echo", Map.of("peerId", fromTo[1].peerId(), "bytes", TEN_MEGABYTES),
                        Duration.ofSeconds(120));
                assertThat(echo.path("muxer").asText()).isEqualTo(MUXER_IDS.get(muxer));
                assertThat(echo.path("receivedBytes").asLong()).isEqualTo(TEN_MEGABYTES);
                assertThat(echo.path("sha256Sent").asText()).isEqualTo(expected);
                assertThat(echo.path("sha256Received").asText()).isEqualTo(expected);
            }
        }
    }

    @Test
    void twoGossipsubPeersConfiguredAsJsWakuCarryAWakuMessageAndRejectOneWithoutContentTopic() {
        try (JsPeer a = JsPeer.start(PEER, "--gossipsub", "--topics", SHARD_0);
             JsPeer b = JsPeer.start(PEER, "--gossipsub", "--topics", SHARD_0)) {
            b.call("dial", Map.of("addr", a.addrs().get(0)));
            awaitMeshPeer(a, SHARD_0, b.peerId());
            awaitMeshPeer(b, SHARD_0, a.peerId());

            byte[] data = Protobuf.wakuMessage(utf8("hello over gossipsub"), CONTENT_TOPIC, 1_700_000_000_000_000_001L)
                    .toByteArray();
            JsonNode published = a.call("publish", Map.of("topic", SHARD_0, "data", base64(data)));
            assertThat(texts(published.path("recipients"))).containsExactly(b.peerId());
            assertThat(published.path("msgId").asText()).isEqualTo(sha256Hex(data));

            JsonNode received = b.awaitEvent("message", e -> e.path("topic").asText().equals(SHARD_0), WAIT);
            assertThat(Base64.getDecoder().decode(received.path("data").asText())).isEqualTo(data);
            assertThat(received.path("msgId").asText()).isEqualTo(sha256Hex(data));
            assertThat(received.path("from").asText()).isEqualTo(a.peerId());

            byte[] withoutContentTopic = Protobuf.message().bytes(1, utf8("payload only")).toByteArray();
            a.call("publish", Map.of("topic", SHARD_0, "data", base64(withoutContentTopic)));
            JsonNode rejected = b.awaitEvent("validation", e -> isFrom(e, "from", a), WAIT);
            assertThat(rejected.path("reason").asText()).isEqualTo("no content topic");
            assertThat(b.events("message")).hasSize(1);
        }
    }

    @Test
    void aJsWakuRelayNodeAndAGossipsubPeerExchangeWakuMessagesBothWays() {
        try (JsPeer relay = JsPeer.start(RELAY_NODE, "--cluster", "0", "--shards", "0");
             JsPeer peer = JsPeer.start(PEER, "--gossipsub", "--topics", SHARD_0)) {
            assertThat(texts(relay.readyLine().path("pubsubTopics"))).containsExactly(SHARD_0);
            JsonNode dialed = peer.call("dial", Map.of("addr", relay.addrs().get(0)));
            assertThat(dialed.path("muxer").asText()).isEqualTo("/mplex/6.7.0"); // js-waku's only muxer
            relay.call("subscribe", Map.of("contentTopic", CONTENT_TOPIC));
            awaitMeshPeer(peer, SHARD_0, relay.peerId());
            awaitMeshPeer(relay, SHARD_0, peer.peerId());

            byte[] fromJsWaku = utf8("from js-waku");
            long timestampMs = 1_700_000_000_123L;
            JsonNode published = relay.call("publish",
                    Map.of("contentTopic", CONTENT_TOPIC, "payload", base64(fromJsWaku), "timestamp", timestampMs));
            assertThat(texts(published.path("recipients"))).containsExactly(peer.peerId());
            assertThat(published.path("messageHash").asText())
                    .isEqualTo(Protobuf.messageHash(SHARD_0, fromJsWaku, CONTENT_TOPIC, timestampMs * 1_000_000));
            JsonNode atPeer = peer.awaitEvent("message", e -> e.path("topic").asText().equals(SHARD_0), WAIT);
            Map<Integer, Object> fields = Protobuf.fields(Base64.getDecoder().decode(atPeer.path("data").asText()));
            assertThat((byte[]) fields.get(1)).isEqualTo(fromJsWaku);
            assertThat(new String((byte[]) fields.get(2), StandardCharsets.UTF_8)).isEqualTo(CONTENT_TOPIC);
            assertThat(Protobuf.zigzagDecode((Long) fields.get(10))).isEqualTo(timestampMs * 1_000_000);

            byte[] toJsWaku = utf8("to js-waku");
            long timestampNs = 1_700_000_000_123_456_789L;
            peer.call("publish", Map.of("topic", SHARD_0,
                    "data", Protobuf.wakuMessage(toJsWaku, CONTENT_TOPIC, timestampNs).base64()));
            JsonNode atRelay = relay.awaitEvent("message",
                    e -> e.path("payload").asText().equals(base64(toJsWaku)), WAIT);
            assertThat(atRelay.path("pubsubTopic").asText()).isEqualTo(SHARD_0);
            assertThat(atRelay.path("contentTopic").asText()).isEqualTo(CONTENT_TOPIC);
            assertThat(atRelay.path("timestamp").asText()).isEqualTo(Long.toString(timestampNs));
            assertThat(atRelay.path("messageHash").asText())
                    .isEqualTo(Protobuf.messageHash(SHARD_0, toJsWaku, CONTENT_TOPIC, timestampNs));
        }
    }

    @Test
    void aLightNodeStartsAndSaysClearlyThatItsPinnedPeerCannotBeReached() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String missing = "/ip4/127.0.0.1/tcp/" + closedPort + "/p2p/" + SOME_PEER_ID;
        try (JsPeer light = JsPeer.start(LIGHT_NODE, "--peer", missing)) {
            JsonNode pinned = light.awaitEvent("pinned", e -> true, WAIT);
            assertThat(pinned.path("connected").asBoolean()).isFalse();
            assertThat(pinned.path("error").asText())
                    .contains("cannot reach the pinned peer " + missing).contains("ECONNREFUSED");
            JsCommandException failure = assertThrows(JsCommandException.class,
                    () -> light.call("store", Map.of("contentTopic", CONTENT_TOPIC)));
            assertThat(failure.error()).contains("cannot reach the pinned peer " + missing);
        }
    }

    @Test
    void aLightNodePagesAStoreQueryUntilAnEmptyPageAndReportsARefusedRawQuerysStatus() {
        byte[] payload = utf8("stored");
        long timestampNs = 1_700_000_000_123_456_789L;
        String hash = Protobuf.messageHash(SHARD_0, payload, CONTENT_TOPIC, timestampNs);
        Protobuf page = Protobuf.message().string(1, "r").uint(10, 200).string(11, "OK")
                .message(20, Protobuf.message().bytes(1, HexFormat.of().parseHex(hash.substring(2)))
                        .message(2, Protobuf.wakuMessage(payload, CONTENT_TOPIC, timestampNs)).string(3, SHARD_0));
        Protobuf emptyPage = Protobuf.message().string(1, "r").uint(10, 200).string(11, "OK");
        Protobuf refusal = Protobuf.message().string(1, "r").uint(10, 400).string(11, "BAD_REQUEST: malformed");

        try (JsPeer server = JsPeer.start(PEER, "--muxers", "mplex")) {
            server.call("respond", Map.of("protocol", STORE, "replies", List.of(page.base64(), emptyPage.base64())));
            try (JsPeer light = JsPeer.start(LIGHT_NODE, "--peer", server.addrs().get(0))) {
                assertThat(light.awaitEvent("pinned", e -> true, WAIT).path("connected").asBoolean()).isTrue();

                JsonNode stored = light.call("store", Map.of("contentTopic", CONTENT_TOPIC, "pageSize", 5));
                assertThat(stored.path("pages").asInt()).isEqualTo(1);
                assertThat(stored.path("messages")).hasSize(1);
                JsonNode message = stored.path("messages").get(0);
                assertThat(message.path("messageHash").asText()).isEqualTo(hash);
                assertThat(message.path("payload").asText()).isEqualTo(base64(payload));
                assertThat(message.path("timestamp").asText()).isEqualTo(Long.toString(timestampNs));

                List<byte[]> requests = requests(server, STORE, 2);
                assertThat(requests).hasSize(2);
                Map<Integer, Object> first = Protobuf.fields(requests.get(0));
                assertThat(text(first, 10)).isEqualTo(SHARD_0);
                assertThat(text(first, 11)).isEqualTo(CONTENT_TOPIC);
                assertThat(first.get(53)).isEqualTo(5L);
                assertThat(first).doesNotContainKey(51);
                Map<Integer, Object> second = Protobuf.fields(requests.get(1));
                assertThat(HexFormat.of().formatHex((byte[]) second.get(51))).isEqualTo(hash.substring(2));

                server.call("respond", Map.of("protocol", STORE, "replies", List.of(refusal.base64())));
                byte[] malformed = {(byte) 0xFF}; // a truncated varint: not a StoreQueryRequest
                JsonNode raw = light.call("store", Map.of("raw", true, "requestBytes", base64(malformed)));
                assertThat(raw.path("statusCode").asInt()).isEqualTo(400);
                assertThat(raw.path("statusDesc").asText()).isEqualTo("BAD_REQUEST: malformed");
                assertThat(requests(server, STORE, 3)).hasSize(3).last().isEqualTo(malformed);
                JsCommandException refused = assertThrows(JsCommandException.class,
                        () -> light.call("store", Map.of("contentTopic", CONTENT_TOPIC)));
                assertThat(refused.error()).contains("400").contains("BAD_REQUEST: malformed");
            }
        }
    }

    @Test
    void aLightNodePushesAMessageAndReceivesOneThroughItsFilterSubscription() {
        try (JsPeer server = JsPeer.start(PEER, "--muxers", "mplex")) {
            server.call("respond", Map.of("protocol", LIGHTPUSH,
                    "replies", List.of(Protobuf.message().string(1, "r").uint(10, 200).uint(12, 1).base64())));
            server.call("respond", Map.of("protocol", FILTER_SUBSCRIBE,
                    "replies", List.of(Protobuf.message().string(1, "r").uint(10, 200).string(11, "OK").base64())));
            try (JsPeer light = JsPeer.start(LIGHT_NODE, "--peer", server.addrs().get(0))) {
                byte[] pushedPayload = utf8("pushed");
                long timestampMs = 1_700_000_000_000L;
                JsonNode pushed = light.call("lightpush", Map.of(
                        "contentTopic", CONTENT_TOPIC, "payload", base64(pushedPayload), "timestamp", timestampMs));
                assertThat(texts(pushed.path("successes"))).containsExactly(server.peerId());
                assertThat(pushed.path("failures")).isEmpty();
                assertThat(pushed.path("messageHash").asText()).isEqualTo(
                        Protobuf.messageHash(SHARD_0, pushedPayload, CONTENT_TOPIC, timestampMs * 1_000_000));
                Map<Integer, Object> push = Protobuf.fields(requests(server, LIGHTPUSH, 1).get(0));
                assertThat(text(push, 20)).isEqualTo(SHARD_0);
                assertThat((byte[]) Protobuf.fields((byte[]) push.get(21)).get(1)).isEqualTo(pushedPayload);

                assertThat(light.call("filterSubscribe", Map.of("contentTopic", CONTENT_TOPIC)).path("pubsubTopic")
                        .asText()).isEqualTo(SHARD_0);
                Map<Integer, Object> subscribe = Protobuf.fields(requests(server, FILTER_SUBSCRIBE, 1).get(0));
                assertThat(text(subscribe, 10)).isEqualTo(SHARD_0);
                assertThat(text(subscribe, 11)).isEqualTo(CONTENT_TOPIC);

                byte[] filteredPayload = utf8("filtered");
                long timestampNs = 1_700_000_000_123_456_789L;
                server.call("send", Map.of("peerId", light.peerId(), "protocol", FILTER_PUSH, "data",
                        Protobuf.message().message(1, Protobuf.wakuMessage(filteredPayload, CONTENT_TOPIC, timestampNs))
                                .string(2, SHARD_0).base64()));
                JsonNode filtered = light.awaitEvent("message", e -> true, WAIT);
                assertThat(filtered.path("payload").asText()).isEqualTo(base64(filteredPayload));
                assertThat(filtered.path("messageHash").asText())
                        .isEqualTo(Protobuf.messageHash(SHARD_0, filteredPayload, CONTENT_TOPIC, timestampNs));
            }
        }
    }

    @Test
    void aFailedCommandThrowsTheScriptsErrorTextAndThePeerKeepsServing() {
        try (JsPeer peer = JsPeer.start(PEER)) {
            JsCommandException off = assertThrows(JsCommandException.class,
                    () -> peer.call("publish", Map.of("topic", SHARD_0, "data", "")));
            assertThat(off.error()).contains("gossipsub is off");
            JsCommandException unknown = assertThrows(JsCommandException.class, () -> peer.call("nope", Map.of()));
            assertThat(unknown.error()).contains("unknown command \"nope\"");
            assertThat(peer.call("peers", Map.of()).path("peers")).isEmpty();
        }
    }

    @Test
    void aScriptThatCannotStartFailsTheTestWithItsReason() {
        AssertionFailedError failure = assertThrows(AssertionFailedError.class,
                () -> JsPeer.start(PEER, "--muxers", "quic").close());
        assertThat(failure.getMessage()).contains("--muxers takes yamux and/or mplex");
    }

    @Test
    void aPeerEndsByItselfWhenItsStdinClosesOrItsTimeoutPasses() {
        try (JsPeer orphan = JsPeer.start(PEER); JsPeer expiring = JsPeer.start(PEER, "--timeout-s", "1")) {
            orphan.closeStdin();
            assertThat(orphan.awaitExit(WAIT)).isZero();
            assertThat(orphan.awaitEvent("stopped", e -> true, WAIT).path("reason").asText()).isEqualTo("stdin closed");
            assertThat(expiring.awaitExit(WAIT)).isZero();
            assertThat(expiring.awaitEvent("stopped", e -> true, WAIT).path("reason").asText()).contains("timeout");
        }
    }

    @Test
    void closingAPeerStopsItsProcess() {
        JsPeer peer = JsPeer.start(PEER);
        peer.close();
        assertThat(peer.isAlive()).isFalse();
        assertThat(peer.awaitExit(WAIT)).isZero();
        assertThat(peer.awaitEvent("stopped", e -> true, WAIT).path("reason").asText()).isEqualTo("stop command");
    }

    /** Polls "mesh" until gossipsub has grafted {@code peerId} on {@code topic} (a heartbeat is 1 s). */
    private static void awaitMeshPeer(JsPeer node, String topic, String peerId) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> mesh = List.of();
        while (System.nanoTime() < deadline) {
            mesh = texts(node.call("mesh", Map.of("topic", topic)).path("peers"));
            if (mesh.contains(peerId)) {
                return;
            }
            sleep(100);
        }
        throw new AssertionFailedError(node + " did not graft " + peerId + " on " + topic + " within " + WAIT
                + "; its mesh: " + mesh);
    }

    /** The requests a scripted peer received on {@code protocol}, oldest first. */
    /**
     * The requests the scripted server recorded for {@code protocol}, once at least {@code count} arrived: the server's
     * event can reach this JVM after the client's answer to the same exchange.
     */
    private static List<byte[]> requests(JsPeer server, String protocol, int count) {
        Eventually.until(() -> recorded(server, protocol).size() >= count,
                () -> count + " " + protocol + " requests, recorded " + recorded(server, protocol).size());
        return recorded(server, protocol);
    }

    private static List<byte[]> recorded(JsPeer server, String protocol) {
        List<byte[]> requests = new ArrayList<>();
        for (JsonNode e : server.events("request")) {
            if (e.path("protocol").asText().equals(protocol)) {
                requests.add(Base64.getDecoder().decode(e.path("data").asText()));
            }
        }
        return requests;
    }

    private static boolean isFrom(JsonNode event, JsPeer peer) {
        return isFrom(event, "peerId", peer);
    }

    private static boolean isFrom(JsonNode event, String field, JsPeer peer) {
        return event.path(field).asText().equals(peer.peerId());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }

    private static String text(Map<Integer, Object> fields, int field) {
        return new String((byte[]) fields.get(field), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionFailedError("interrupted");
        }
    }
}
