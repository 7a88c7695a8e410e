package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random bad input against every REST endpoint of an in-process node: malformed and mutated JSON, wrong
 * types, huge and deeply nested bodies, bad base64, bad and injection-looking topics in paths and query
 * parameters, broken %-escapes, odd methods and paths, broken request lines. Every answer must be below 500,
 * carry no stack trace or class name, and, when the request reached the API, be a JSON error; the node must keep
 * serving throughout. The cases of the REST hardening issue must each get their one answer: a foreign Origin or
 * Host 403, a body that is not JSON 415, a publish on a topic the node does not relay 400, a peerAddr that is not a peer's multiaddr 400,
 * content topics with %2C commas and the largest store pages 200. {@code -Dfuzz.seed=N -Dfuzz.requests=N} replay or
 * widen a run (the seed is printed).
 */
class RestFuzzTest {
    private static final String TOPIC = "/waku/2/rs/0/0";
    private static final String CONTENT = "/app/1/chat/proto";
    private static final long SEED = Long.getLong("fuzz.seed", 20261202L);
    private static final int REQUESTS = Integer.getInteger("fuzz.requests", 1500);

    /** Strings that look like attacks on something behind the API; none of it may reach a stack trace. */
    private static final String[] HOSTILE = {
            "' OR '1'='1", "\"; DROP TABLE messages; --", "../../../../etc/passwd", "..%2F..%2Fetc%2Fpasswd",
            "${jndi:ldap://127.0.0.1/x}", "<script>alert(1)</script>", "%00", "\u0000", "\r\nX-Injected: 1",
            "{{7*7}}", "$(reboot)", "`id`", "/waku/2/rs/0/0\u0000evil", "/waku/2/rs/0/0/../../admin", "\uD83D\uDE00",
            "\uFFFF", "/waku/2/rs/-1/-1", "/waku/2/rs/99999999999999999999/0", "/waku/2/", "/waku/2/rs/0/0 ",
            " /waku/2/rs/0/0", "/waku/2/rs/0/0\t", "%", "%zz", "%C3%28", "%ED%A0%80", "+", "null", "[]", "{}",
    };

    @TempDir
    static Path dataDir;
    static WakuNode node;
    static RawHttp raw;
    static RawHttp rawShort;
    static Http rest;

    @BeforeAll
    static void start() {
        node = WakuNode.start(TestNodes.local(dataDir).metrics(TestNodes.metrics())
                .rest(TestNodes.rest().maxStreams(4).build()).build());
        raw = new RawHttp(node.restAddress());
        rawShort = new RawHttp(node.restAddress(), 3_000);
        rest = new Http(node.restAddress());
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    /**
     * @param headers  more headers (a {@code Host} among them replaces the usual one)
     * @param expected the one status the request must get; 0 when any 4xx (or a 200 by chance) will do
     */
    private record Case(String kind, String method, String target, byte[] body, String contentType, byte[] rawRequest,
                        Map<String, String> headers, int expected) {
        Case(String kind, String method, String target, byte[] body, String contentType, byte[] rawRequest) {
            this(kind, method, target, body, contentType, rawRequest, Map.of(), 0);
        }

        static Case http(String kind, String method, String target, String body) {
            return new Case(kind, method, target, body == null ? null : body.getBytes(StandardCharsets.UTF_8), "application/json", null);
        }

        String describe() {
            return kind + ": " + (rawRequest != null ? RawHttp.preview(rawRequest)
                    : method + " " + target + (body == null ? "" : " body " + RawHttp.preview(body)));
        }
    }

    @Test
    void randomBadRequestsAreAlways4xxJsonWithoutInternalsAndTheNodeKeepsServing() {
        System.out.println("RestFuzzTest seed=" + SEED + " requests=" + REQUESTS);
        Random random = new Random(SEED);
        List<Supplier<Case>> generators = List.of(
                () -> mutatedPublish(random), () -> mutatedPublish(random), () -> wrongTypes(random),
                () -> badBase64(random), () -> hostileTopicInPath(random), () -> hostileTopicInPath(random),
                () -> hostileQuery(random), () -> hostileQuery(random), () -> badSubscriptions(random),
                () -> oddMethodOrPath(random), () -> brokenRequest(random), () -> nestedOrHuge(random),
                () -> foreignOrigin(random), () -> foreignHost(random), () -> notJson(random), () -> unrelayedTopic(random),
                () -> remoteStore(random), () -> commaInContentTopic(random), () -> largestStorePage(random));
        Map<String, Integer> byStatus = new TreeMap<>();
        Map<String, Integer> byKind = new TreeMap<>();
        Map<String, Long> millisByKind = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            Case c = generators.get(random.nextInt(generators.size())).get();
            long t0 = System.nanoTime();
            // broken requests may be left waiting by the codec, and a stream on a valid topic never ends: short reads
            RawHttp client = c.rawRequest != null || c.target.startsWith("/relay/v1/stream/") ? rawShort : raw;
            RawHttp.Reply reply = c.rawRequest != null ? client.raw(c.rawRequest) : client.request(c.method, c.target, c.body, c.contentType, c.headers);
            millisByKind.merge(c.kind, (System.nanoTime() - t0) / 1_000_000, Long::sum);
            byStatus.merge(c.kind + " " + reply.status(), 1, Integer::sum);
            byKind.merge(c.kind, 1, Integer::sum);
            String problem = problemWith(c, reply);
            if (problem != null && failures.size() < 20) {
                failures.add(problem + "\n   request " + c.describe() + "\n   reply " + reply.status() + " " + RawHttp.preview(reply.body().getBytes(StandardCharsets.UTF_8)));
            }
            if (i % 250 == 0) {
                assertThat(rest.get("/health").status()).as("health answers during the fuzz run (request %d)", i).isEqualTo(200);
            }
        }
        System.out.println("RestFuzzTest statuses by kind: " + byStatus);
        System.out.println("RestFuzzTest milliseconds by kind: " + millisByKind);
        assertThat(failures).as("requests answered wrongly (seed " + SEED + ")").isEmpty();

        // still serving: a good publish is archived, and nothing went wrong inside
        long timestamp = WakuNode.nowNanos();
        String good = "{\"payload\":\"" + Base64.getEncoder().encodeToString("after the fuzz".getBytes()) + "\",\"contentTopic\":\"" + CONTENT
                + "\",\"timestamp\":" + timestamp + "}";
        assertThat(rest.post("/relay/v1/messages/" + Http.topic(TOPIC), good).status()).isEqualTo(200);
        assertThat(rest.get("/health").json().get("nodeHealth").asText()).isEqualTo("READY");
        assertThat(node.storeHealth()).isEqualTo("Ready");
        assertThat(byKind).as("every kind of bad input was tried").hasSize(generators.stream().map(g -> g.get().kind()).distinct().toList().size());
    }

    /**
     * Found by this fuzz test, both answered 500: Netty's QueryStringDecoder throws on a broken escape, and a
     * requestId given twice was refused before the handler's try.
     */
    @Test
    void aBrokenPercentEscapeInAStoreQueryIsA400AndARepeatedRequestIdIsTakenOnce() {
        for (String query : new String[]{"%", "pubsubTopic=%2", "contentTopics=%&cursor=true", "%zz=1"}) {
            RawHttp.Reply reply = raw.request("GET", "/store/v3/messages?" + query, null, null);
            assertThat(reply.status()).as(query + ": " + reply.body()).isEqualTo(400);
            assertThat(reply.body()).startsWith("the query string is not valid");
        }
        RawHttp.Reply repeated = raw.request("GET", "/store/v3/messages?requestId=a&requestId=b", null, null);
        assertThat(repeated.status()).as(repeated.body()).isEqualTo(200);
        assertThat(repeated.body()).contains("\"requestId\":\"a\"");
    }

    /** Null when the reply is acceptable. */
    private static String problemWith(Case c, RawHttp.Reply reply) {
        if (c.expected != 0 && reply.status() != c.expected) {
            return "expected " + c.expected;
        }
        if (reply.status() >= 500) {
            // nwaku's answer to a cursor that is not stored is the one 5xx a request may earn
            return reply.status() == 500 && reply.body().endsWith("cursor not found") ? null : "a 5xx";
        }
        // nwaku's words for a hash that is not hex name an exception; they are its text, not ours leaking
        String everything = (reply.head() + "\n" + reply.body()).replace("Exception converting hex string to bytes", "");
        for (String internal : new String[]{"Exception", "\tat ", "at io.", "at java.", "at reactor.", "com.fasterxml", "java.lang",
                "io.netty", "io.wakurelay", "org.rocksdb"}) {
            if (everything.contains(internal)) {
                return "internals in the reply ('" + internal + "')";
            }
        }
        if (reply.status() == RawHttp.HELD_OPEN) {
            // a broken request the codec waits on (e.g. for the rest of a request line); the REST idle timeout
            // (2 min) closes it; anything that reached the API must be answered
            return c.rawRequest != null ? null : "neither answered nor closed";
        }
        if (reply.status() == -1) {
            // only a broken request may be cut without an answer, and only when it never reached the API
            return c.rawRequest != null || reply.writeFailed() ? null : "no HTTP answer";
        }
        if (reply.status() < 400) {
            return reply.status() == 200 || reply.status() == c.expected ? null : "unexpected status";
        }
        if (reply.body().isEmpty() && (c.rawRequest != null || reply.status() == 414 || reply.status() == 431 || brokenRequestLine(c.target))) {
            // refused by the HTTP codec before routing (broken request line or headers, a request line over
            // 16 KiB, headers over 8 KiB): Reactor Netty answers itself, with an empty body
            return null;
        }
        if (reply.head().toLowerCase(java.util.Locale.ROOT).contains("content-type: text/plain")) {
            // an error in nwaku's words, text/plain as nwaku sends it
            return reply.body().isBlank() ? "a blank error message" : null;
        }
        try {
            JsonNode json = Http.JSON.readTree(reply.body());
            if (json == null || !json.isObject() || !(json.hasNonNull("error") || json.hasNonNull("statusDesc"))) {
                return "a 4xx without a JSON error";
            }
            String message = json.hasNonNull("error") ? json.get("error").asText() : json.get("statusDesc").asText();
            if (message.isBlank()) {
                return "a blank error message";
            }
        } catch (Exception e) {
            return "a 4xx whose body is not JSON";
        }
        return null;
    }

    /** A request target with raw whitespace, control or non-ASCII bytes: the request line itself is broken. */
    private static boolean brokenRequestLine(String target) {
        return target != null && target.chars().anyMatch(ch -> ch <= 0x20 || ch >= 0x7f);
    }

    // ------------------------------------------------------------------ generators

    private static String validPublish(Random r) {
        return publishWith(r, null, null);
    }

    /** A valid publish body, except that {@code field} (when not null) has the raw JSON {@code value}. */
    private static String publishWith(Random r, String field, String value) {
        Map<String, Object> fields = new LinkedHashMap<>();
        byte[] payload = new byte[r.nextInt(64)];
        r.nextBytes(payload);
        fields.put("payload", "\"" + Base64.getEncoder().encodeToString(payload) + "\"");
        fields.put("contentTopic", "\"" + CONTENT + "\"");
        if (r.nextBoolean()) {
            fields.put("timestamp", String.valueOf(WakuNode.nowNanos()));
        }
        if (r.nextBoolean()) {
            fields.put("version", String.valueOf(r.nextInt(3)));
        }
        if (r.nextBoolean()) {
            fields.put("meta", "\"bWV0YQ==\"");
        }
        if (r.nextBoolean()) {
            fields.put("ephemeral", String.valueOf(r.nextBoolean()));
        }
        if (field != null) {
            fields.put(field, value);
        }
        StringBuilder json = new StringBuilder("{");
        fields.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
        return json.append('}').toString();
    }

    private static String publishPath() {
        return "/relay/v1/messages/" + Http.topic(TOPIC);
    }

    /** A valid body with bytes flipped, cut, inserted or deleted: mostly malformed JSON. */
    private static Case mutatedPublish(Random r) {
        byte[] body = validPublish(r).getBytes(StandardCharsets.UTF_8);
        int edits = 1 + r.nextInt(4);
        for (int e = 0; e < edits && body.length > 1; e++) {
            int at = r.nextInt(body.length);
            switch (r.nextInt(4)) {
                case 0 -> body[at] = (byte) r.nextInt(256);
                case 1 -> body = java.util.Arrays.copyOf(body, at);
                case 2 -> {
                    byte[] grown = new byte[body.length + 1];
                    System.arraycopy(body, 0, grown, 0, at);
                    String specials = "{}[]\",:\\\u0000 ";
                    grown[at] = (byte) specials.charAt(r.nextInt(specials.length()));
                    System.arraycopy(body, at, grown, at + 1, body.length - at);
                    body = grown;
                }
                default -> {
                    byte[] shrunk = new byte[body.length - 1];
                    System.arraycopy(body, 0, shrunk, 0, at);
                    System.arraycopy(body, at + 1, shrunk, at, body.length - at - 1);
                    body = shrunk;
                }
            }
        }
        return new Case("mutated-json", "POST", publishPath(), body, r.nextBoolean() ? "application/json" : "text/plain", null);
    }

    private static final String[] WRONG_VALUES = {"null", "true", "1", "-1", "1.5", "1e400", "-9223372036854775809",
            "99999999999999999999999999", "\"\"", "\"x\"", "[]", "[1,2]", "{}", "{\"a\":1}", "\"" + "A".repeat(5000) + "\"",
            "NaN", "Infinity", "0x10", "\"\\u0000\"", "\"\\ud800\""};

    private static Case wrongTypes(Random r) {
        String[] fields = {"payload", "contentTopic", "version", "timestamp", "meta", "ephemeral", "rateLimitProof", "unknown"};
        String field = fields[r.nextInt(fields.length)];
        String value = WRONG_VALUES[r.nextInt(WRONG_VALUES.length)];
        String body = r.nextInt(5) == 0
                ? validPublish(r).replaceFirst("^\\{", "{\"" + field + "\":" + value + ",") // a duplicate key: the last one wins
                : publishWith(r, field, value);
        return Case.http("wrong-type", "POST", publishPath(), body);
    }

    private static Case badBase64(Random r) {
        String[] bad = {"***", "aGk", "aGk==", "a", "====", "aGk=aGk=", "aG k=", "aGk=\\n", "\\u00ff\\u00fe", "-_-_", "%%%%",
                "A".repeat(204_801), Base64.getEncoder().encodeToString(new byte[65])};
        String field = r.nextBoolean() ? "payload" : (r.nextBoolean() ? "meta" : "rateLimitProof");
        String other = field.equals("payload") ? "" : "\"payload\":\"aGk=\",";
        return Case.http("bad-base64", "POST", publishPath(),
                "{" + other + "\"" + field + "\":\"" + bad[r.nextInt(bad.length)] + "\",\"contentTopic\":\"" + CONTENT + "\"}");
    }

    private static String hostileString(Random r) {
        String s = HOSTILE[r.nextInt(HOSTILE.length)];
        switch (r.nextInt(4)) {
            case 0 -> s = TOPIC + s;
            case 1 -> s = s + s;
            case 2 -> {
                StringBuilder b = new StringBuilder();
                int n = 1 + r.nextInt(40);
                for (int i = 0; i < n; i++) {
                    b.append((char) (r.nextBoolean() ? 32 + r.nextInt(95) : r.nextInt(0x3000)));
                }
                s = b.toString();
            }
            default -> {
            }
        }
        if (r.nextInt(20) == 0) {
            s = s + "x".repeat(4000);
        }
        return s;
    }

    /** Encodes as a path segment or query value would be; sometimes leaves raw characters in. */
    private static String encode(Random r, String s) {
        if (r.nextInt(4) == 0) {
            // raw: whatever survives in a request line (no spaces, CR or LF, which would break the line itself)
            StringBuilder b = new StringBuilder();
            for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
                b.append(x == ' ' || x == '\r' || x == '\n' || x == '#' || x == '?' ? "%20" : String.valueOf((char) (x & 0xff)));
            }
            return b.toString();
        }
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static Case hostileTopicInPath(Random r) {
        String topic = encode(r, hostileString(r));
        return switch (r.nextInt(3)) {
            case 0 -> new Case("hostile-topic", "POST", "/relay/v1/messages/" + topic, validPublish(r).getBytes(StandardCharsets.UTF_8),
                    "application/json", null);
            case 1 -> new Case("hostile-topic", "GET", "/relay/v1/messages/" + topic, null, null, null);
            default -> new Case("hostile-topic", "GET", "/relay/v1/stream/" + topic, null, null, null);
        };
    }

    private static final String[] QUERY_NAMES = {"pubsubTopic", "contentTopics", "hashes", "cursor", "startTime", "endTime",
            "pageSize", "ascending", "includeData", "requestId", "colour", "", "pubsubTopic[]", "PageSize"};

    private static Case hostileQuery(Random r) {
        StringBuilder q = new StringBuilder();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) {
            String name = QUERY_NAMES[r.nextInt(QUERY_NAMES.length)];
            String value = switch (r.nextInt(5)) {
                case 0 -> hostileString(r);
                case 1 -> WRONG_VALUES[r.nextInt(WRONG_VALUES.length)];
                case 2 -> "0x" + "ab".repeat(r.nextInt(40));
                case 3 -> String.join(",", java.util.Collections.nCopies(1 + r.nextInt(150), "0x" + "0".repeat(64)));
                default -> TOPIC;
            };
            q.append(i == 0 ? "" : (r.nextInt(10) == 0 ? ";" : "&")).append(encode(r, name));
            if (r.nextInt(10) > 0) {
                q.append('=').append(encode(r, value));
            }
        }
        return new Case("hostile-query", "GET", "/store/v3/messages?" + q, null, null, null);
    }

    private static Case badSubscriptions(Random r) {
        String[] bodies = {"", "[", "{}", "\"" + TOPIC + "\"", "[1,2,3]", "[null]", "[[\"" + TOPIC + "\"]]",
                "[\"" + hostileString(r).replace("\\", "\\\\").replace("\"", "\\\"") + "\"]",
                "[" + String.join(",", java.util.Collections.nCopies(2000, "\"/waku/2/rs/0/" + r.nextInt(9) + "\"")) + "]",
                "[\"/waku/2/rs/0/0\",]", "[\"" + "/waku/2/" + "x".repeat(300) + "\"]"};
        return Case.http("bad-subscriptions", r.nextBoolean() ? "POST" : "DELETE", "/relay/v1/subscriptions", bodies[r.nextInt(bodies.length)]);
    }

    private static Case oddMethodOrPath(Random r) {
        String[] methods = {"PUT", "PATCH", "OPTIONS", "TRACE", "FOO", "DELETE", "POST", "GET", "HEAD"};
        String[] paths = {"/", "//health", "/health/", "/health?x=1", "/relay/v1/messages/", "/relay/v1/messages",
                "/relay/v1/stream/", "/store/v3/messages/", "/store/v3/messages/x", "/%2e%2e/%2e%2e/etc/passwd", "/admin/v1/peers",
                "/debug/v1/info", "/metrics", "/relay/v1/subscriptions/x", "/relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0/extra",
                "/" + "a/".repeat(500), "*", "/relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0?%zz", "/store/v3/messages?%"};
        String method = methods[r.nextInt(methods.length)];
        String path = paths[r.nextInt(paths.length)];
        if (method.equals("HEAD")) {
            method = "GET"; // HEAD answers have no body to check
        }
        String body = method.equals("GET") ? null : (r.nextBoolean() ? "[\"/waku/2/rs/0/0\"]" : "{\"x\":");
        return Case.http("odd-method-or-path", method, path, body);
    }

    private static Case brokenRequest(Random r) {
        String[] requests = {
                "GARBAGE\r\n\r\n",
                "GET\r\n\r\n",
                "GET /health HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /health HTTP/1.1\r\nHost x\r\nConnection: close\r\n\r\n",
                "GET /" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "POST /relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0 HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}",
                "POST /relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0 HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\nConnection: close\r\n\r\n{}",
                "POST /relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
                "POST /relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n",
                "POST /relay/v1/messages/%2Fwaku%2F2%2Frs%2F0%2F0 HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\nConnection: close\r\n\r\n",
                "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\nConnection: close\r\n\r\n",
                "\u0000\u0001\u0002\u0003\r\n\r\n",
                "GET /store/v3/messages?pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0\u0000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        };
        String request = requests[r.nextInt(requests.length)];
        return new Case("broken-request", null, null, null, null, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Case nestedOrHuge(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> Case.http("nested-or-huge", "POST", publishPath(), "[".repeat(100_000) + "]".repeat(100_000));
            case 1 -> Case.http("nested-or-huge", "POST", publishPath(), "{\"payload\":" + "{\"a\":".repeat(50_000) + "1" + "}".repeat(50_001));
            case 2 -> Case.http("nested-or-huge", "POST", publishPath(), "{\"payload\":\"" + "A".repeat(1 << 21) + "\"}");
            case 3 -> Case.http("nested-or-huge", "POST", "/relay/v1/subscriptions", "[" + "\"/waku/2/rs/0/1\",".repeat(60_000) + "\"/waku/2/rs/0/1\"]");
            default -> Case.http("nested-or-huge", "POST", publishPath(),
                    "{\"payload\":\"aGk=\",\"contentTopic\":\"" + CONTENT + "\"," + "\"x\":1,".repeat(100_000) + "\"y\":2}");
        };
    }

    // ---- the cases of the REST hardening issue: each has the one answer it must get

    private static final String[] FOREIGN_ORIGINS = {"http://evil.example", "null", "https://localhost.evil.example", "file://",
            "http://127.0.0.1.nip.io:8645", "chrome-extension://abcdef", "http://[::1]:3000", "http://localhost:3000"};

    /** A valid request of some kind, sent as a web page's script would: refused whatever it is (no origin is allowed here). */
    private static Case foreignOrigin(Random r) {
        Case valid = validRequest(r);
        return new Case("foreign-origin", valid.method, valid.target, valid.body, valid.contentType, null,
                Map.of("Origin", FOREIGN_ORIGINS[r.nextInt(FOREIGN_ORIGINS.length)]), 403);
    }

    private static final String[] FOREIGN_HOSTS = {"rebind.attacker.example", "localhost.attacker.example", "127.0.0.1.nip.io",
            "0x7f.1", "127.1", "2130706433", "[::1]", "127.0.0.2", "wakurelay", "LOCALHOST.example"};

    /** DNS rebinding: a valid request under a name the node was not given. */
    private static Case foreignHost(Random r) {
        Case valid = validRequest(r);
        String host = FOREIGN_HOSTS[r.nextInt(FOREIGN_HOSTS.length)] + (r.nextBoolean() ? ":" + node.restAddress().getPort() : "");
        return new Case("foreign-host", valid.method, valid.target, valid.body, valid.contentType, null, Map.of("Host", host), 403);
    }

    private static final String[] NOT_JSON = {"text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "text/json", "application/jsonx", "application/json-patch+json", "", "*/*"};

    /** A body a page may POST anywhere without a CORS preflight (or any other non-JSON type): 415. */
    private static Case notJson(Random r) {
        Case valid = switch (r.nextInt(3)) {
            case 0 -> Case.http("", "POST", publishPath(), validPublish(r));
            case 1 -> Case.http("", r.nextBoolean() ? "POST" : "DELETE", "/relay/v1/subscriptions", "[\"" + TOPIC + "\"]");
            default -> Case.http("", "POST", "/admin/v1/peers", "[\"127.0.0.1:1\"]"); // 404 anyway: admin is off, not served
        };
        String type = r.nextInt(8) == 0 ? null : NOT_JSON[r.nextInt(NOT_JSON.length)];
        int expected = valid.target.startsWith("/admin") ? 404 : 415;
        return new Case("not-json", valid.method, valid.target, valid.body, type, null, Map.of(), expected);
    }

    /** A valid publish on a valid topic this node does not relay: 400 in nwaku's words, never a silent 200. */
    private static Case unrelayedTopic(Random r) {
        String topic = "/waku/2/rs/77/" + r.nextInt(1000);
        return new Case("unrelayed-topic", "POST", "/relay/v1/messages/" + Http.topic(topic), validPublish(r).getBytes(StandardCharsets.UTF_8),
                "application/json", null, Map.of(), 400);
    }

    /** nwaku's peerAddr (a remote store) that is not a multiaddr with a valid peer id: 400, and nothing is dialled. */
    private static Case remoteStore(Random r) {
        String peer = r.nextBoolean() ? "/ip4/127.0.0.1/tcp/60000/p2p/16Uiu2HAm" + r.nextInt(1000) : hostileString(r);
        String more = r.nextBoolean() ? "&pubsubTopic=" + Http.topic(TOPIC) + "&pageSize=" + r.nextInt(200) : "";
        return new Case("remote-store", "GET", "/store/v3/messages?peerAddr=" + URLEncoder.encode(peer, StandardCharsets.UTF_8) + more,
                null, null, null, Map.of(), 400);
    }

    /** Content topics with a comma sent as %2C, several of them separated by raw commas: a valid query, 200. */
    private static Case commaInContentTopic(Random r) {
        List<String> topics = new ArrayList<>();
        for (int i = 0; i <= r.nextInt(4); i++) {
            topics.add(Http.topic("/app/" + i + "/a,b" + ",".repeat(r.nextInt(3)) + "c/proto"));
        }
        return new Case("comma-in-content-topic", "GET", "/store/v3/messages?pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics="
                + String.join(",", topics) + "&includeData=" + r.nextBoolean(), null, null, null, Map.of(), 200);
    }

    /** The largest page there is, forward or backward: 200 (or 429 were every query slot taken). */
    private static Case largestStorePage(Random r) {
        String query = "pageSize=" + (100 + r.nextInt(1000)) + "&includeData=true&ascending=" + r.nextBoolean()
                + (r.nextBoolean() ? "&pubsubTopic=" + Http.topic(TOPIC) + "&contentTopics=" + Http.topic(CONTENT) : "");
        return new Case("largest-store-page", "GET", "/store/v3/messages?" + query, null, null, null, Map.of(), 200);
    }

    /** A request that is answered 200 when sent properly. */
    private static Case validRequest(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> Case.http("", "POST", publishPath(), validPublish(r));
            case 1 -> Case.http("", "POST", "/relay/v1/subscriptions", "[\"" + TOPIC + "\"]");
            case 2 -> Case.http("", "GET", "/store/v3/messages?includeData=true&pageSize=100", null);
            case 3 -> Case.http("", "GET", "/relay/v1/messages/" + Http.topic(TOPIC), null);
            default -> Case.http("", "GET", "/health", null);
        };
    }
}
