package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.MessageHash;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code GET /store/v3/messages}: Store v3 queries over the archive, in nwaku's REST shape. */
final class StoreApi {
    private static final Set<String> PARAMETERS = Set.of("pubsubTopic", "contentTopics", "startTime", "endTime", "hashes",
            "cursor", "pageSize", "ascending", "includeData", "requestId");

    private final MessageArchive archive;
    private final ObjectMapper mapper;

    /** @param archive null when the node does not archive */
    StoreApi(MessageArchive archive, ObjectMapper mapper) {
        this.archive = archive;
        this.mapper = mapper;
    }

    Publisher<Void> query(HttpServerRequest request, HttpServerResponse response) {
        Map<String, List<String>> params;
        try {
            params = new QueryStringDecoder(request.uri()).parameters();
        } catch (IllegalArgumentException e) { // a broken %-escape in the query string
            return reply(response, HttpResponseStatus.BAD_REQUEST, "", "the query string is not valid: " + e.getMessage(), null);
        }
        String requestId;
        try {
            requestId = single(params, "requestId", "");
        } catch (IllegalArgumentException e) { // requestId given twice: nothing to echo
            return reply(response, HttpResponseStatus.BAD_REQUEST, "", e.getMessage(), null);
        }
        if (archive == null) {
            return reply(response, HttpResponseStatus.SERVICE_UNAVAILABLE, requestId,
                    "this node does not archive messages (it was started with --store=false)", null);
        }
        StoreQuery query;
        try {
            query = parse(params);
        } catch (IllegalArgumentException e) { // InvalidQueryException is one
            return reply(response, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage(), null);
        }
        // RocksDB reads block; they never run on the network threads
        return Mono.fromCallable(() -> archive.query(query))
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(result -> Mono.from(reply(response, HttpResponseStatus.OK, requestId, "OK", render(result, query.includeData()))))
                .onErrorResume(InvalidQueryException.class,
                        e -> Mono.from(reply(response, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage(), null)));
    }

    private StoreQuery parse(Map<String, List<String>> params) {
        for (String name : params.keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw new IllegalArgumentException("unknown parameter '" + name + "'; parameters are "
                        + String.join(", ", PARAMETERS.stream().sorted().toList()));
            }
        }
        StoreQuery.Builder b = StoreQuery.builder();
        String pubsubTopic = single(params, "pubsubTopic", null);
        if (pubsubTopic != null && !pubsubTopic.isEmpty()) {
            b.pubsubTopic(pubsubTopic);
        }
        b.contentTopics(list(params, "contentTopics"));
        List<MessageHash> hashes = new ArrayList<>();
        for (String h : list(params, "hashes")) {
            hashes.add(hash(h, "hashes"));
        }
        b.hashes(hashes);
        String start = single(params, "startTime", null);
        if (start != null) {
            b.startTime(number(start, "startTime"));
        }
        String end = single(params, "endTime", null);
        if (end != null) {
            b.endTime(number(end, "endTime"));
        }
        String cursor = single(params, "cursor", null);
        if (cursor != null && !cursor.isEmpty()) {
            b.cursor(hash(cursor, "cursor"));
        }
        String pageSize = single(params, "pageSize", null);
        if (pageSize != null) {
            long n = number(pageSize, "pageSize");
            if (n < 0) {
                throw new IllegalArgumentException("pageSize must not be negative, was " + pageSize);
            }
            // as nwaku: 0 means the default, more than the maximum means the maximum
            b.pageSize((int) Math.min(n, StoreQuery.MAX_PAGE_SIZE));
        }
        b.ascending(bool(single(params, "ascending", "true"), "ascending"));
        b.includeData(bool(single(params, "includeData", "false"), "includeData"));
        return b.build();
    }

    private ObjectNode render(StoreResponse result, boolean includeData) {
        ObjectNode body = mapper.createObjectNode();
        ArrayNode messages = body.putArray("messages");
        for (StoredMessage m : result.messages()) {
            ObjectNode o = messages.addObject();
            o.put("messageHash", m.hash().toHex());
            if (includeData) {
                o.set("message", MessageJson.write(mapper, m.message()));
                o.put("pubsubTopic", m.pubsubTopic());
            }
        }
        if (result.paginationCursor() != null) {
            body.put("paginationCursor", result.paginationCursor().toHex());
        }
        return body;
    }

    private Publisher<Void> reply(HttpServerResponse response, HttpResponseStatus status, String requestId, String desc, ObjectNode result) {
        ObjectNode body = mapper.createObjectNode();
        body.put("requestId", requestId);
        body.put("statusCode", status.code());
        body.put("statusDesc", desc);
        if (result != null) {
            body.setAll(result);
        } else {
            body.putArray("messages");
        }
        return Responses.json(response, mapper, status, body);
    }

    private static String single(Map<String, List<String>> params, String name, String fallback) {
        List<String> values = params.get(name);
        if (values == null || values.isEmpty()) {
            return fallback;
        }
        if (values.size() > 1) {
            throw new IllegalArgumentException(name + " is given " + values.size() + " times");
        }
        return values.get(0);
    }

    private static List<String> list(Map<String, List<String>> params, String name) {
        List<String> out = new ArrayList<>();
        for (String value : params.getOrDefault(name, List.of())) {
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    out.add(part.trim());
                }
            }
        }
        return out;
    }

    private static long number(String text, String name) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, was '" + text + "'");
        }
    }

    private static boolean bool(String text, String name) {
        return switch (text.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, was '" + text + "'");
        };
    }

    private static MessageHash hash(String text, String name) {
        try {
            return MessageHash.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }
}
