package io.wakurelay.node;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a web page in the operator's browser can make the browser send to 127.0.0.1:8645, refused: bodies that
 * are not JSON (a form or text/plain POST needs no CORS preflight), requests from a foreign Origin, and requests
 * under a foreign Host name (DNS rebinding). An origin allowed with --rest-allow-origin gets CORS headers.
 */
class RestCrossOriginTest {
    private static final String EVIL = "http://evil.example";

    @TempDir
    static Path dir;
    static WakuNode strict; // defaults: no origin allowed
    static WakuNode open;   // --rest-allow-origin localhost:* --rest-allow-host node-b

    @BeforeAll
    static void start() {
        strict = WakuNode.start(TestNodes.local(dir.resolve("strict")).metrics(TestNodes.metrics()).build());
        open = WakuNode.start(TestNodes.local(dir.resolve("open"))
                .rest(TestNodes.rest().allowOrigins(List.of("localhost:*")).allowHosts(List.of("node-b")).build()).build());
    }

    @AfterAll
    static void stop() {
        strict.close();
        open.close();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBodyThatIsNotJsonIsRefusedWith415AndSubscribesNothing() {
        RawHttp raw = new RawHttp(strict.restAddress());
        for (String type : new String[]{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", null}) {
            RawHttp.Reply reply = raw.request("POST", "/relay/v1/subscriptions", utf8("[\"/waku/2/rs/0/9\"]"), type);
            assertThat(reply.status()).as(type + ": " + reply.body()).isEqualTo(415);
            assertThat(reply.body()).contains("application/json");
        }
        String message = "{\"payload\":\"" + Base64.getEncoder().encodeToString(utf8("x")) + "\",\"contentTopic\":\"/app/1/x/proto\"}";
        assertThat(raw.request("POST", "/relay/v1/messages/" + Http.topic("/waku/2/rs/0/0"), utf8(message), "text/plain").status()).isEqualTo(415);
        assertThat(strict.relay().subscriptions()).doesNotContain("/waku/2/rs/0/9");
        assertThat(raw.request("POST", "/relay/v1/subscriptions", utf8("[\"/waku/2/rs/0/9\"]"), "application/json; charset=utf-8").status())
                .as("JSON with a charset is JSON").isEqualTo(200);
        assertThat(strict.relay().subscriptions()).contains("/waku/2/rs/0/9");
    }

    @Test
    void aRequestFromAForeignOriginIsRefusedWith403AndChangesNothing() {
        RawHttp raw = new RawHttp(strict.restAddress());
        RawHttp.Reply subscribe = raw.request("POST", "/relay/v1/subscriptions", utf8("[\"/waku/2/rs/0/8\"]"), "application/json", Map.of("Origin", EVIL));
        assertThat(subscribe.status()).as(subscribe.body()).isEqualTo(403);
        assertThat(subscribe.body()).contains("--rest-allow-origin");
        assertThat(strict.relay().subscriptions()).doesNotContain("/waku/2/rs/0/8");
        assertThat(raw.request("POST", "/relay/v1/subscriptions", utf8("[\"/waku/2/rs/0/8\"]"), "text/plain", Map.of("Origin", EVIL)).status())
                .isEqualTo(403);
        assertThat(raw.request("GET", "/health", null, null, Map.of("Origin", "http://localhost:3000")).status())
                .as("no origin is allowed by default").isEqualTo(403);
        assertThat(raw.request("OPTIONS", "/relay/v1/subscriptions", null, null,
                Map.of("Origin", EVIL, "Access-Control-Request-Method", "POST")).status()).as("preflight refused").isEqualTo(403);
        assertThat(raw.request("GET", "/health", null, null).status()).as("no Origin: not a browser's cross-origin request").isEqualTo(200);
    }

    @Test
    void anAllowedOriginGetsCorsHeadersAndItsPreflightIsAnswered() {
        RawHttp raw = new RawHttp(open.restAddress());
        String origin = "http://localhost:3000";
        RawHttp.Reply preflight = raw.request("OPTIONS", "/relay/v1/subscriptions", null, null,
                Map.of("Origin", origin, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"));
        assertThat(preflight.status()).isEqualTo(204);
        assertThat(preflight.head().toLowerCase()).contains("access-control-allow-origin: " + origin, "access-control-allow-methods: get, post, delete",
                "access-control-allow-headers: content-type");
        RawHttp.Reply subscribe = raw.request("POST", "/relay/v1/subscriptions", utf8("[\"/waku/2/rs/0/6\"]"), "application/json", Map.of("Origin", origin));
        assertThat(subscribe.status()).as(subscribe.body()).isEqualTo(200);
        assertThat(subscribe.head().toLowerCase()).contains("access-control-allow-origin: " + origin, "vary: origin");
        assertThat(raw.request("GET", "/health", null, null, Map.of("Origin", EVIL)).status()).as("other origins stay refused").isEqualTo(403);
    }

    @Test
    void aForeignHostNameIsRefusedWhileTheBoundAddressLocalhostAndAllowedNamesAreServed() {
        int port = strict.restAddress().getPort();
        RawHttp raw = new RawHttp(strict.restAddress());
        RawHttp.Reply rebound = raw.request("GET", "/health", null, null, Map.of("Host", "rebind.attacker.example:" + port));
        assertThat(rebound.status()).as(rebound.body()).isEqualTo(403);
        assertThat(rebound.body()).contains("--rest-allow-host");
        assertThat(raw.request("POST", "/relay/v1/subscriptions", utf8("[\"/waku/2/rs/0/4\"]"), "application/json",
                Map.of("Host", "rebind.attacker.example:" + port)).status()).isEqualTo(403);
        assertThat(strict.relay().subscriptions()).doesNotContain("/waku/2/rs/0/4");
        assertThat(raw.request("GET", "/health", null, null, Map.of("Host", "127.0.0.1:" + port)).status()).isEqualTo(200);
        assertThat(raw.request("GET", "/health", null, null, Map.of("Host", "localhost:" + port)).status()).isEqualTo(200);
        assertThat(raw.request("GET", "/health", null, null, Map.of("Host", "127.0.0.2:" + port)).status())
                .as("another IP than the one bound").isEqualTo(403);
        assertThat(raw.request("GET", "/health", null, null, Map.of("Host", "node-b:" + port)).status())
                .as("a name not allowed on this node").isEqualTo(403);
        RawHttp named = new RawHttp(open.restAddress());
        assertThat(named.request("GET", "/health", null, null, Map.of("Host", "node-b:8645")).status()).as("--rest-allow-host node-b").isEqualTo(200);
    }

    /**
     * Issue 43's N6: a web page's {@code <img src>} (a no-cors GET, without {@code Origin}) on any site drained the
     * app's relay and filter caches: the app's next poll got {@code []}. Browsers mark such a request
     * {@code Sec-Fetch-Site: cross-site} (or {@code same-site}, another port of localhost) with {@code Sec-Fetch-Mode}
     * {@code no-cors} or {@code navigate}: the draining GETs refuse it, and leave the cache to the app.
     */
    @Test
    void aWebPagesNonCorsRequestToADrainingGetIsRefusedAndLeavesTheCache() {
        String topic = "/waku/2/rs/0/0";
        RawHttp raw = new RawHttp(strict.restAddress());
        assertThat(raw.request("POST", "/relay/v1/subscriptions", utf8("[\"" + topic + "\"]"), "application/json").status())
                .isEqualTo(200);
        String message = "{\"payload\":\"" + Base64.getEncoder().encodeToString(utf8("for the app"))
                + "\",\"contentTopic\":\"/app/1/drain/proto\"}";
        assertThat(raw.request("POST", "/relay/v1/messages/" + Http.topic(topic), utf8(message), "application/json").status())
                .isEqualTo(200);
        String path = "/relay/v1/messages/" + Http.topic(topic);
        for (Map<String, String> page : List.of(
                Map.of("Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image"),
                Map.of("Sec-Fetch-Site", "same-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "script"),
                Map.of("Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "document"))) {
            RawHttp.Reply drained = raw.request("GET", path, null, null, page);
            assertThat(drained.status()).as(page + ": " + drained.body()).isEqualTo(403);
            assertThat(drained.body()).contains("--rest-allow-origin");
        }
        for (String drains : List.of("/relay/v1/auto/messages/" + Http.topic("/app/1/drain/proto"),
                "/filter/v2/messages/" + Http.topic("/app/1/drain/proto"))) {
            assertThat(raw.request("GET", drains, null, null, Map.of("Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode",
                    "no-cors")).status()).as(drains).isEqualTo(403);
        }
        assertThat(raw.request("GET", "/health", null, null, Map.of("Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode",
                "no-cors")).status()).as("a GET that drains nothing is not concerned").isEqualTo(200);
        RawHttp.Reply app = raw.request("GET", path, null, null, Map.of("Sec-Fetch-Site", "none", "Sec-Fetch-Mode", "navigate"));
        assertThat(app.status()).as("the operator typing the URL").isEqualTo(200);
        assertThat(app.body()).as("the cache was left to the app").contains(Base64.getEncoder().encodeToString(utf8("for the app")));
        assertThat(Http.metric(new Http(strict.metricsAddress()).get("/metrics").body(),
                "waku_rest_requests_forbidden_total{reason=\"cross_site\"}")).isEqualTo(5);
    }

    /** nwaku's clients (curl, its REST client, the interop tests' requests) send no Sec-Fetch headers; an app's fetch() from an allowed origin is a CORS request: both drain as before. */
    @Test
    void clientsThatAreNotPagesAndCorsRequestsOfAllowedOriginsStillDrainTheCache() {
        String topic = "/waku/2/rs/0/0";
        for (WakuNode node : List.of(strict, open)) {
            RawHttp raw = new RawHttp(node.restAddress());
            assertThat(raw.request("POST", "/relay/v1/subscriptions", utf8("[\"" + topic + "\"]"), "application/json").status())
                    .isEqualTo(200);
        }
        RawHttp plain = new RawHttp(strict.restAddress());
        assertThat(plain.request("GET", "/relay/v1/messages/" + Http.topic(topic), null, "application/json").status())
                .as("the interop tests send Content-Type: application/json and nothing else").isEqualTo(200);
        RawHttp raw = new RawHttp(open.restAddress());
        RawHttp.Reply cors = raw.request("GET", "/relay/v1/messages/" + Http.topic(topic), null, null, Map.of(
                "Origin", "http://localhost:3000", "Sec-Fetch-Site", "same-site", "Sec-Fetch-Mode", "cors"));
        assertThat(cors.status()).as(cors.body()).isEqualTo(200);
        assertThat(cors.head().toLowerCase()).contains("access-control-allow-origin: http://localhost:3000");
    }
}
