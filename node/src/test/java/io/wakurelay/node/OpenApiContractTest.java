package io.wakurelay.node;

import io.wakurelay.protocol.AutoSharding;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/openapi.yaml against a running node: every documented operation answers its example request with a documented
 * status and a body of the documented schema, every route the server has is documented, and a method a path does not
 * document is a 404, as nwaku's router answers it.
 */
class OpenApiContractTest {
    private static final Path SPEC = Path.of("..", "docs", "openapi.yaml");
    private static final Path ROUTER = Path.of("src", "main", "java", "io", "wakurelay", "node", "rest", "RestServer.java");
    private static final Pattern ROUTE_LITERAL = Pattern.compile("\"(/[a-z0-9/-]+)\"");
    private static final Set<String> METHODS = Set.of("get", "post", "put", "delete", "options");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path dir;
    private static WakuNode node;
    private static JsonNode spec;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        spec = new YAMLMapper().readTree(Files.readString(SPEC));
        // automatic sharding over one shard: every content topic is on /waku/2/rs/0/0, which the node relays
        node = WakuNode.start(TestNodes.local(dir).rest(TestNodes.rest().admin(true).build())
                .autoSharding(new AutoSharding(0, 1)).build());
        base = "http://127.0.0.1:" + node.restAddress().getPort();
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void everyDocumentedOperationAnswersItsExampleWithADocumentedStatusAndSchema() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null) {
                    continue;
                }
                String where = method.toUpperCase() + " " + path.getKey();
                JsonNode example = operation.get("x-example");
                if (example == null) {
                    problems.add(where + ": no x-example");
                    continue;
                }
                for (JsonNode topic : example.path("subscribeFirst")) {
                    send("POST", "/relay/v1/subscriptions", JSON.writeValueAsString(JSON.createArrayNode().add(topic)));
                }
                // an event stream never ends: it gets a client of its own, so that its connection is never reused
                Answer answer = send(example.path("stream").asBoolean(false) ? HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build() : CLIENT,
                        method.toUpperCase(), target(path.getKey(), example),
                        example.has("body") ? JSON.writeValueAsString(example.get("body")) : null);
                checked++;
                JsonNode documented = operation.path("responses").get(Integer.toString(answer.status));
                if (documented == null) {
                    problems.add(where + ": status " + answer.status + " is not documented (" + answer.body + ")");
                    continue;
                }
                documented = resolve(documented);
                String type = answer.contentType.split(";")[0].trim();
                JsonNode content = documented.path("content").get(type);
                if (content == null) {
                    problems.add(where + ": " + answer.status + " answered " + type + ", documented " + documented.path("content").fieldNames().next());
                } else if (type.equals("application/json")) {
                    validate(JSON.readTree(answer.body), content.get("schema"), where + " " + answer.status + " $", problems);
                } else if (content.path("schema").has("enum")) {
                    validate(JSON.getNodeFactory().textNode(answer.body), content.get("schema"), where + " " + answer.status, problems);
                }
            }
        }
        assertThat(problems).as("%d operations checked", checked).isEmpty();
        assertThat(checked).isGreaterThanOrEqualTo(19);
    }

    @Test
    void everyRouteTheServerHasIsDocumented() throws IOException {
        Set<String> documented = new TreeSet<>();
        spec.get("paths").fieldNames().forEachRemaining(p -> documented.add(p.replaceAll("\\{[^}]+}", "")));
        Set<String> undocumented = new TreeSet<>();
        Matcher literal = ROUTE_LITERAL.matcher(Files.readString(ROUTER));
        int routes = 0;
        while (literal.find()) {
            String route = literal.group(1);
            routes++;
            if (documented.stream().noneMatch(p -> p.equals(route) || (route.endsWith("/") && p.startsWith(route)))) {
                undocumented.add(route);
            }
        }
        assertThat(routes).as("route literals in RestServer").isGreaterThanOrEqualTo(14);
        assertThat(undocumented).as("routes served but not in docs/openapi.yaml").isEmpty();
    }

    @Test
    void aMethodAPathDoesNotDocumentIsA404AsInNwakuAndSoIsAnUnknownPath() throws Exception {
        List<String> problems = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = spec.get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            JsonNode example = path.getValue().elements().hasNext() ? firstExample(path.getValue()) : null;
            if (path.getValue().has("put")) {
                continue; // a path that takes PUT (nwaku's filter subscriptions)
            }
            String target = target(path.getKey(), example == null ? JSON.createObjectNode() : example);
            int status = send("PUT", target, null).status;
            if (status != 404) {
                problems.add("PUT " + path.getKey() + ": " + status);
            }
        }
        assertThat(problems).isEmpty();
        assertThat(send("GET", "/relay/v2/nothing", null).status).isEqualTo(404);
    }

    private static JsonNode firstExample(JsonNode pathItem) {
        for (String method : METHODS) {
            if (pathItem.has(method)) {
                return pathItem.get(method).get("x-example");
            }
        }
        return null;
    }

    /** The path with its example's path parameters percent-encoded in, and its query. */
    private static String target(String template, JsonNode example) {
        String path = template;
        for (Iterator<Map.Entry<String, JsonNode>> p = example.path("path").fields(); p.hasNext(); ) {
            Map.Entry<String, JsonNode> e = p.next();
            path = path.replace("{" + e.getKey() + "}", URLEncoder.encode(e.getValue().asText(), StandardCharsets.UTF_8));
        }
        StringBuilder query = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> q = example.path("query").fields(); q.hasNext(); ) {
            Map.Entry<String, JsonNode> e = q.next();
            query.append(query.length() == 0 ? '?' : '&').append(e.getKey()).append('=')
                    .append(URLEncoder.encode(e.getValue().asText(), StandardCharsets.UTF_8));
        }
        return path + query;
    }

    private record Answer(int status, String contentType, String body) {
    }

    /** One request; an event stream is answered by its status and headers only (its body never ends). */
    private static Answer send(String method, String target, String body) throws IOException, InterruptedException {
        return send(CLIENT, method, target, body);
    }

    private static Answer send(HttpClient client, String method, String target, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + target)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new AssertionError(method + " " + target + ": no answer within 30 s", e);
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        try (InputStream in = response.body()) {
            String text = type.startsWith("text/event-stream") ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(response.statusCode(), type, text);
        }
    }

    private static JsonNode resolve(JsonNode node) {
        while (node.has("$ref")) {
            JsonNode target = spec;
            for (String part : node.get("$ref").asText().substring(2).split("/")) {
                target = target.get(part);
            }
            node = target;
        }
        return node;
    }

    /** The subset of JSON Schema docs/openapi.yaml uses: type, required, properties, items, enum, nullable, additionalProperties. */
    private static void validate(JsonNode value, JsonNode schema, String at, List<String> problems) {
        schema = resolve(schema);
        if (value.isNull()) {
            if (!schema.path("nullable").asBoolean(false)) {
                problems.add(at + ": null where the schema does not allow it");
            }
            return;
        }
        String type = schema.path("type").asText("");
        boolean typeOk = switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> true;
        };
        if (!typeOk) {
            problems.add(at + ": " + value.getNodeType() + " where the schema says " + type);
            return;
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonNode allowed : schema.get("enum")) {
                listed |= allowed.asText().equals(value.asText());
            }
            if (!listed) {
                problems.add(at + ": '" + value.asText() + "' is not one of " + schema.get("enum"));
            }
        }
        if (value.isArray()) {
            int i = 0;
            for (JsonNode item : value) {
                validate(item, schema.get("items"), at + "[" + i++ + "]", problems);
            }
        }
        if (value.isObject()) {
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.asText())) {
                    problems.add(at + ": no '" + required.asText() + "'");
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode property = schema.path("properties").get(field.getKey());
                JsonNode additional = schema.get("additionalProperties");
                if (property != null) {
                    validate(field.getValue(), property, at + "." + field.getKey(), problems);
                } else if (additional != null && additional.isObject()) {
                    validate(field.getValue(), additional, at + "." + field.getKey(), problems);
                } else {
                    // the server must not answer fields the document does not know of
                    problems.add(at + ": '" + field.getKey() + "' is not documented");
                }
            }
        }
    }
}
