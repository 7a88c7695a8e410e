package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.services.filter.FilterClient;
import io.wakurelay.services.filter.FilterRequestException.Kind;
import io.wakurelay.services.filter.FilterRequestException;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * nwaku's filter client REST API ({@code rest_api/endpoint/filter/handlers.nim}): subscriptions are made at the
 * filter service node ({@code --filternode}, or a connected peer that serves filter) and its pushes are cached per
 * content topic ({@link FilterMessageCache}) for {@code GET /filter/v2/messages/{contentTopic}}. Answers are nwaku's
 * {@code {"requestId": "..", "statusDesc": ".."}} with the HTTP status nwaku gives each kind of failure (a dial
 * failure 504, a bad response 500, the service node's 400, 404, 429 and 503 as they are).
 */
final class FilterApi {
    static final String PREFIX = "/filter/v2/";
    private static final String SUBSCRIPTIONS = "/filter/v2/subscriptions";
    private static final String ALL = "/filter/v2/subscriptions/all";
    private static final String MESSAGES = "/filter/v2/messages/";
    /** nwaku's request id when the body could not be read. */
    private static final String UNKNOWN_ID = "unknown";
    private static final byte[] OPEN = {'['};
    private static final byte[] COMMA = {','};
    private static final byte[] CLOSE = {']'};
    private static final byte[] EMPTY = {'[', ']'};

    private final FilterClient client;
    private final FilterMessageCache cache;
    private final AutoSharding autoSharding;
    private final ObjectMapper mapper;
    private final RestConfig config;

    /** A subscribe or unsubscribe body: nwaku's {@code FilterSubscribeRequest}. */
    private record Criteria(String requestId, String pubsubTopic, List<String> contentFilters) {
    }

    FilterApi(FilterClient client, FilterMessageCache cache, AutoSharding autoSharding, ObjectMapper mapper, RestConfig config) {
        this.client = client;
        this.cache = cache;
        this.autoSharding = autoSharding;
        this.mapper = mapper;
        this.config = config;
    }

    Publisher<Void> route(HttpServerRequest request, HttpServerResponse response, HttpMethod method, String path) {
        if (path.equals(SUBSCRIPTIONS)) {
            if (method.equals(HttpMethod.POST) || method.equals(HttpMethod.PUT)) {
                return subscribe(request, response);
            }
            if (method.equals(HttpMethod.DELETE)) {
                return unsubscribe(request, response);
            }
            throw notServed(method, path, "POST, PUT, DELETE");
        }
        if (path.equals(ALL)) {
            if (method.equals(HttpMethod.DELETE)) {
                return unsubscribeAll(request, response);
            }
            if (method.equals(HttpMethod.GET)) {
                return ping(response, "all"); // nwaku's router matches it as the ping's {requestId}
            }
            throw notServed(method, path, "GET, DELETE");
        }
        if (path.startsWith(SUBSCRIPTIONS + "/") && path.indexOf('/', SUBSCRIPTIONS.length() + 1) < 0) {
            if (method.equals(HttpMethod.GET)) {
                return ping(response, Paths.decode(path.substring(SUBSCRIPTIONS.length() + 1)));
            }
            throw notServed(method, path, "GET");
        }
        if (path.startsWith(MESSAGES)) {
            if (method.equals(HttpMethod.GET)) {
                return messages(response, path.substring(MESSAGES.length()));
            }
            throw notServed(method, path, "GET");
        }
        throw HttpError.notFound("no endpoint " + method + " " + path);
    }

    private static HttpError notServed(HttpMethod method, String path, String methods) {
        return HttpError.notFound("no endpoint " + method + " " + path + "; this path takes " + methods);
    }

    private Publisher<Void> subscribe(HttpServerRequest request, HttpServerResponse response) {
        return body(request, response, true, body -> {
            Criteria c = criteria(body);
            return Mono.defer(() -> byShard(c).concatMap(e -> client.subscribe(e.getKey(), e.getValue())).then())
                    .then(Mono.fromRunnable(() -> cache.open(c.contentFilters())))
                    .then(Mono.defer(() -> ok(response, c.requestId())))
                    .onErrorResume(FilterRequestException.class, e -> failed(response, c.requestId(), e,
                            "Subscription request timed out"));
        });
    }

    private Publisher<Void> unsubscribe(HttpServerRequest request, HttpServerResponse response) {
        return body(request, response, true, body -> {
            Criteria c = criteria(body);
            return Mono.defer(() -> byShard(c).concatMap(e -> client.unsubscribe(e.getKey(), e.getValue())).then())
                    .doFinally(signal -> cache.close(c.contentFilters())) // as nwaku: whatever the service node said
                    .then(Mono.defer(() -> ok(response, c.requestId())))
                    .onErrorResume(FilterRequestException.class, e -> failed(response, c.requestId(), e,
                            "Failed to unsubscribe from contentFilters due to timeout!"));
        });
    }

    private Publisher<Void> unsubscribeAll(HttpServerRequest request, HttpServerResponse response) {
        return body(request, response, false, body -> {
            String requestId = requestId(body);
            return client.unsubscribeAll()
                    .doFinally(signal -> cache.clear())
                    .then(Mono.defer(() -> ok(response, requestId)))
                    .onErrorResume(FilterRequestException.class, e -> failed(response, requestId, e,
                            "Failed to unsubscribe from all contentFilters due to timeout!"));
        });
    }

    private Publisher<Void> ping(HttpServerResponse response, String requestId) {
        return client.ping().then(Mono.defer(() -> ok(response, requestId)))
                .onErrorResume(FilterRequestException.class, e -> failed(response, requestId, e, "Ping timed out"));
    }

    /** {@code {contentTopic}}, or {@code {pubsubTopic}/{contentTopic}} (ours: only what came on that pubsub topic). */
    private Publisher<Void> messages(HttpServerResponse response, String rawTopics) {
        int slash = rawTopics.indexOf('/');
        boolean both = slash > 0 && rawTopics.indexOf('/', slash + 1) < 0;
        String contentTopic = Paths.decode(both ? rawTopics.substring(slash + 1) : rawTopics);
        String pubsubTopic = both ? Paths.decode(rawTopics.substring(0, slash)) : null;
        List<byte[]> cached = cache.drain(contentTopic, pubsubTopic);
        if (cached == null) {
            throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST, "Not subscribed to topic: " + contentTopic);
        }
        // the array around the cached JSON, one message per chunk, without copying them into one body
        List<ByteBuf> chunks = new ArrayList<>(cached.size() + 1);
        for (int i = 0; i < cached.size(); i++) {
            chunks.add(Unpooled.wrappedBuffer(i == 0 ? OPEN : COMMA, cached.get(i)));
        }
        chunks.add(Unpooled.wrappedBuffer(cached.isEmpty() ? EMPTY : CLOSE));
        response.status(HttpResponseStatus.OK).header(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        return Responses.sendOneByOne(response, Flux.fromIterable(chunks));
    }

    /** The pubsub topic of the request, or with automatic sharding each content topic's shard, as nwaku does. */
    private Flux<Map.Entry<String, List<String>>> byShard(Criteria c) {
        if (c.pubsubTopic() != null) {
            return Flux.just(Map.entry(c.pubsubTopic(), c.contentFilters()));
        }
        if (autoSharding == null) {
            return Flux.error(new FilterRequestException(Kind.BAD_REQUEST,
                    "pubsubTopic must be given: this node has no automatic sharding (--num-shards-in-network)"));
        }
        Map<String, List<String>> shards = new LinkedHashMap<>();
        for (String ct : c.contentFilters()) {
            try {
                shards.computeIfAbsent(autoSharding.pubsubTopic(ct), t -> new ArrayList<>()).add(ct);
            } catch (ProtocolViolation | IllegalArgumentException e) {
                return Flux.error(new FilterRequestException(Kind.BAD_RESPONSE, "can't get shard"));
            }
        }
        return Flux.fromIterable(shards.entrySet());
    }

    /** Reads the body as nwaku's {@code decodeRequestBody}; a body that does not decode is answered at once. */
    private Publisher<Void> body(HttpServerRequest request, HttpServerResponse response, boolean criteria,
            java.util.function.Function<JsonNode, Mono<Void>> then) {
        String type = request.requestHeaders().get("Content-Type");
        if (!Bodies.isJson(type)) {
            return undecodable(response, type == null ? "Missing content body" : "Wrong Content-Type, expected application/json");
        }
        return Bodies.read(request, config.maxBodyBytes())
                .flatMap(bytes -> {
                    if (bytes.length == 0) {
                        return Mono.from(undecodable(response, "Missing content body"));
                    }
                    JsonNode body;
                    try {
                        body = Bodies.json(mapper, bytes);
                        check(body, criteria);
                    } catch (HttpError e) {
                        return Mono.from(undecodable(response, "Invalid content body, could not decode. " + e.getMessage()));
                    }
                    return then.apply(body);
                });
    }

    /** The fields nwaku's readers require; an unknown field fails nwaku's reader too. */
    private static void check(JsonNode body, boolean criteria) {
        if (body == null || !body.isObject()) {
            throw HttpError.badRequest("the body must be a JSON object");
        }
        List<String> known = criteria ? List.of("requestId", "pubsubTopic", "contentFilters") : List.of("requestId");
        body.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                throw HttpError.badRequest("unknown field '" + (name.length() > 64 ? name.substring(0, 64) + "..." : name) + "'");
            }
        });
        JsonNode id = body.get("requestId");
        if (id == null) {
            throw HttpError.badRequest("Field `requestId` is missing");
        }
        if (!id.isTextual()) {
            throw HttpError.badRequest("requestId must be a string");
        }
        if (!criteria) {
            return;
        }
        JsonNode pubsub = body.get("pubsubTopic");
        if (pubsub != null && !pubsub.isNull() && !pubsub.isTextual()) {
            throw HttpError.badRequest("pubsubTopic must be a string");
        }
        JsonNode filters = body.get("contentFilters");
        if (filters == null) {
            throw HttpError.badRequest("Field `contentFilters` is missing");
        }
        if (!filters.isArray()) {
            throw HttpError.badRequest("contentFilters must be a list of strings");
        }
        if (filters.isEmpty()) {
            throw HttpError.badRequest("Field `contentFilters` is empty");
        }
        for (JsonNode f : filters) {
            if (!f.isTextual()) {
                throw HttpError.badRequest("contentFilters must be a list of strings");
            }
        }
    }

    private static String requestId(JsonNode body) {
        return body.get("requestId").asText();
    }

    private static Criteria criteria(JsonNode body) {
        JsonNode pubsub = body.get("pubsubTopic");
        // nwaku reads an empty pubsub topic as none
        String pubsubTopic = pubsub == null || pubsub.isNull() || pubsub.asText().isEmpty() ? null : pubsub.asText();
        List<String> contentFilters = new ArrayList<>();
        body.get("contentFilters").forEach(f -> contentFilters.add(f.asText()));
        return new Criteria(requestId(body), pubsubTopic, List.copyOf(contentFilters));
    }

    private Publisher<Void> undecodable(HttpServerResponse response, String why) {
        return answer(response, HttpResponseStatus.BAD_REQUEST, UNKNOWN_ID, "BAD_REQUEST: Failed to decode request: " + why);
    }

    private Mono<Void> ok(HttpServerResponse response, String requestId) {
        return Mono.from(answer(response, HttpResponseStatus.OK, requestId, "OK"));
    }

    /**
     * nwaku's answer to a failed request: the kind's HTTP status; the service node's words, or the address for a
     * dial failure; for a timeout and a missing service node, its REST layer's own words after the kind.
     */
    private Mono<Void> failed(HttpServerResponse response, String requestId, FilterRequestException e, String timeoutText) {
        String desc;
        if (e.timedOut()) {
            desc = "SERVICE_UNAVAILABLE: " + timeoutText;
        } else if (FilterRequestException.NO_SERVICE_PEER.equals(e.detail())) {
            desc = e.described();
        } else {
            desc = e.detail();
        }
        return Mono.from(answer(response, status(e.kind()), requestId, desc));
    }

    /** nwaku's {@code convertErrorKindToHttpStatus}. */
    private static HttpResponseStatus status(Kind kind) {
        return switch (kind) {
            case UNKNOWN -> HttpResponseStatus.OK;
            case PEER_DIAL_FAILURE -> HttpResponseStatus.GATEWAY_TIMEOUT;
            case BAD_RESPONSE -> HttpResponseStatus.INTERNAL_SERVER_ERROR;
            case BAD_REQUEST -> HttpResponseStatus.BAD_REQUEST;
            case NOT_FOUND -> HttpResponseStatus.NOT_FOUND;
            case TOO_MANY_REQUESTS -> HttpResponseStatus.TOO_MANY_REQUESTS;
            case SERVICE_UNAVAILABLE -> HttpResponseStatus.SERVICE_UNAVAILABLE;
        };
    }

    private Publisher<Void> answer(HttpServerResponse response, HttpResponseStatus status, String requestId, String desc) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("requestId", requestId);
        body.put("statusDesc", desc);
        return Responses.json(response, mapper, status, body);
    }
}
