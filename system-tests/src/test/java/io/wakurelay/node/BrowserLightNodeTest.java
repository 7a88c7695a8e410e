package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.wakurelay.p2p.connection.Transport;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.ws.WebSocketConfig;
import io.wakurelay.testkit.Eventually;
import io.wakurelay.testkit.JsPeer;
import io.wakurelay.testkit.TestCertificates;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser app uses the node as its service node: a page of headless Chromium (Debian's, driven by playwright-core)
 * runs a js-waku light node (@waku/sdk 0.0.36, bundled with esbuild when the test runs) that dials the node over
 * {@code /ws}, and over {@code /wss} with a certificate the test makes and Chromium is told to accept, then
 * publishes with lightpush (the message is then in the node's store and relayed to a second node), receives over
 * filter what is published over REST, and pages the store. Any of the three failing fails the test.
 */
@Tag("process")
@Tag("slow")
class BrowserLightNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TOPIC = "/waku/2/rs/0/0";

    @TempDir
    Path dir;

    @Test
    void aBrowserAppPublishesReceivesAndPagesTheStoreThroughTheNodeOverWsAndWss() throws Exception {
        TestCertificates certs = TestCertificates.selfSigned(Files.createDirectory(dir.resolve("tls")));
        try (WakuNode relayPeer = WakuNode.start(TestNodes.local(dir.resolve("peer")).build())) {
            for (boolean secure : List.of(false, true)) {
                WebSocketConfig ws = WebSocketConfig.DEFAULTS.toBuilder().listen(true).port(0)
                        .certPath(secure ? certs.cert() : null).keyPath(secure ? certs.key() : null).build();
                try (WakuNode served = WakuNode.start(TestNodes.local(dir.resolve(secure ? "wss" : "ws"))
                        .host(TestNodes.host("127.0.0.1").webSocket(ws).staticPeers(List.of(relayPeer.multiaddr()))
                                .build())
                        .build())) {
                    Eventually.until("the two nodes are in each other's mesh", WAIT,
                            () -> served.relay().mesh().getOrDefault(TOPIC, List.of()).size() == 1);
                    int port = served.host().webSocketAddress().getPort();
                    assertThat(new Http(served.restAddress()).get("/debug/v1/info").json().path("listenAddresses").toString())
                            .as("/debug/v1/info").contains("/tcp/" + port + (secure ? "/wss/p2p/" : "/ws/p2p/"));
                    // a browser checks the name in the certificate: wss goes to localhost, as to a node's DNS name
                    String address = secure ? "/dns4/localhost/tcp/" + port + "/wss/p2p/" + served.peerId()
                            : served.host().listenAddresses().stream().filter(Multiaddr::isWebSocket).findFirst()
                            .orElseThrow().toString();
                    List<String> args = new ArrayList<>(List.of("--peer", address, "--timeout-s", "150"));
                    if (secure) {
                        args.addAll(List.of("--trust-spki", certs.spkiSha256()));
                    }
                    try (JsPeer browser = JsPeer.start(JsPeer.Script.BROWSER_NODE, args)) {
                        servedThroughTheBrowser(served, relayPeer, browser, secure ? Transport.WSS : Transport.WS);
                    }
                }
            }
        }
    }

    private static void servedThroughTheBrowser(WakuNode served, WakuNode relayPeer, JsPeer browser, Transport transport) {
        String what = transport.label();
        String contentTopic = "/browser/1/" + what + "/proto";
        JsonNode connected = browser.readyLine().path("connected");
        assertThat(connected.path("userAgent").asText()).as(what).contains("HeadlessChrome");
        // the page reports its side of the upgrade; the node may finish its own a moment later (failed once in CI)
        PeerId page = PeerId.parse(browser.peerId());
        Eventually.until(what + ": the node holds the page's connection", WAIT,
                () -> served.host().connection(page).isPresent());
        assertThat(served.host().connection(page).orElseThrow().transport()).as(what).isEqualTo(transport);
        browser.call("filterSubscribe", Map.of("contentTopic", contentTopic), WAIT);

        // lightpush: in the node's store, and relayed to the second node (which archives it too)
        JsonNode pushed = browser.call("lightpush", Map.of("contentTopic", contentTopic, "payload", base64("from the browser")), WAIT);
        assertThat(pushed.path("failures")).as("%s lightpush failures: %s", what, pushed.path("failures")).isEmpty();
        String pushedHash = pushed.path("messageHash").asText();
        Http servedRest = new Http(served.restAddress());
        Http peerRest = new Http(relayPeer.restAddress());
        Eventually.until(what + ": both nodes archive the lightpushed message", WAIT,
                () -> ArchivedMessages.stored(servedRest, List.of(pushedHash)) == 1
                        && ArchivedMessages.stored(peerRest, List.of(pushedHash)) == 1);

        // filter: what is published over REST (on the second node, relayed to the served one) reaches the page
        String body = "{\"payload\":\"" + base64("from REST") + "\",\"contentTopic\":\"" + contentTopic + "\"}";
        assertThat(peerRest.post("/relay/v1/messages/" + Http.topic(TOPIC), body).status()).isEqualTo(200);
        JsonNode filtered = browser.awaitEvent("message", e -> base64("from REST").equals(e.path("payload").asText()), WAIT);
        assertThat(filtered.path("contentTopic").asText()).isEqualTo(contentTopic);
        String restHash = filtered.path("messageHash").asText();
        Eventually.until(what + ": the REST message archived with the hash the page computed", WAIT,
                () -> ArchivedMessages.stored(servedRest, List.of(restHash)) == 1);

        // store: five messages of the topic, paged two at a time
        List<String> hashes = new ArrayList<>(List.of(pushedHash, restHash));
        for (int i = 0; i < 3; i++) {
            JsonNode more = browser.call("lightpush", Map.of("contentTopic", contentTopic, "payload", base64("more " + i)), WAIT);
            assertThat(more.path("failures")).as("%s lightpush failures: %s", what, more.path("failures")).isEmpty();
            hashes.add(more.path("messageHash").asText());
        }
        Eventually.until(what + ": all five archived", WAIT, () -> ArchivedMessages.stored(servedRest, hashes) == 5);
        JsonNode stored = browser.call("store", Map.of("contentTopic", contentTopic, "pageSize", 2), WAIT);
        assertThat(stored.path("messages").findValuesAsText("messageHash")).as(what).containsExactlyInAnyOrderElementsOf(hashes);
        assertThat(stored.path("pageSizes").toString()).as(what).isEqualTo("[2,2,1]");
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
