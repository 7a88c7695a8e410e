package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.services.OpenQuery;
import io.wakurelay.services.StoreBusyException;
import io.wakurelay.services.StoreQueries;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.MultiaddrFormatException;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.RemoteStoreException;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/** {@code GET /store/v3/messages}: Store v3 queries over the archive, in nwaku's REST shape. */
final class StoreApi {
    private static final Logger log = LoggerFactory.getLogger(StoreApi.class);
    private static final Set<String> PARAMETERS = Set.of("pubsubTopic", "contentTopics", "startTime", "endTime", "hashes",
            "cursor", "pageSize", "ascending", "includeData", "requestId", "peerAddr");

    /** How long one chunk of an answer may wait for the client to take it before the answer is cut (its slot freed). */
    static final Duration WRITE_STALL_TIMEOUT = Duration.ofSeconds(20);

    private final StoreQueries queries;
    private final RemoteStore remote;
    private final ObjectMapper mapper;

    /**
     * @param queries null when the node does not archive
     * @param remote  asks other nodes' stores ({@code peerAddr})
     */
    StoreApi(StoreQueries queries, RemoteStore remote, ObjectMapper mapper) {
        this.queries = queries;
        this.remote = remote;
        this.mapper = mapper;
    }

    Publisher<Void> query(HttpServerRequest request, HttpServerResponse response) {
        QueryParameters params;
        try {
            params = QueryParameters.of(request.uri());
        } catch (IllegalArgumentException e) { // a broken %-escape in the query string
            return reply(response, HttpResponseStatus.BAD_REQUEST, "", "the query string is not valid: " + e.getMessage());
        }
        String requestId;
        try {
            requestId = params.single("requestId", "");
        } catch (IllegalArgumentException e) { // requestId given twice or broken: nothing to echo
            return reply(response, HttpResponseStatus.BAD_REQUEST, "", e.getMessage());
        }
        Multiaddr peer;
        try {
            peer = peerAddr(params);
        } catch (IllegalArgumentException e) {
            return reply(response, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage());
        }
        if (peer == null && queries == null) {
            // nwaku's answer when it has no store of its own and no store peer to ask (rest_api/endpoint/store/handlers.nim)
            return reply(response, HttpResponseStatus.PRECONDITION_FAILED, requestId,
                    "this node does not archive messages (it was started with --store=false); give peerAddr to ask another node");
        }
        StoreQuery query;
        try {
            query = parse(params);
        } catch (IllegalArgumentException e) { // InvalidQueryException is one
            return reply(response, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage());
        }
        // RocksDB reads block; they never run on the network threads. The page is opened first (its slot, index
        // entries and cursor), so that any failure until then still gets a JSON answer; then it is written out as
        // it is read, one chunk at a time as the client takes them, and closed (freeing its slot) however that ends.
        // A remote page arrives whole (bounded by the store client's response limit) and is written out the same way.
        Mono<OpenQuery> open = peer != null
                ? remote.open(peer, query, requestId)
                : Mono.fromCallable(() -> contained(() -> queries.open(query))).subscribeOn(Schedulers.boundedElastic());
        return Mono.usingWhen(open, page -> stream(response, page, query.includeData(), requestId),
                        page -> Mono.fromRunnable(page::close), (page, error) -> Mono.fromRunnable(page::close),
                        page -> Mono.fromRunnable(page::close))
                .doOnDiscard(OpenQuery.class, OpenQuery::close) // opened after the client went away
                // a client that hung up goes on to RestServer, which logs it quietly; nothing can be sent to it
                .onErrorResume(e -> !response.hasSentHeaders() && !(e instanceof AbortedException), e -> Mono.from(failed(response, requestId, e)));
    }

    private Mono<Void> stream(HttpServerResponse response, OpenQuery page, boolean includeData, String requestId) {
        Flux<ByteBuf> chunks = Flux.<ByteBuf, StorePageJson>generate(() -> new StorePageJson(mapper, page, includeData, requestId),
                        (json, sink) -> {
                            ByteBuf chunk = contained(json::nextChunk);
                            if (chunk == null) {
                                sink.complete();
                            } else {
                                sink.next(chunk);
                            }
                            return json;
                        }, StorePageJson::close)
                .subscribeOn(Schedulers.boundedElastic());
        response.status(HttpResponseStatus.OK).header(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        return Responses.sendOneByOne(response, chunks, WRITE_STALL_TIMEOUT);
    }

    /** The answer to a query that failed before its first byte was sent: always a JSON answer, never a dropped request. */
    private Publisher<Void> failed(HttpServerResponse response, String requestId, Throwable e) {
        if (e instanceof InvalidQueryException) {
            return reply(response, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage());
        }
        if (e instanceof StoreBusyException) {
            // nwaku answers a store past its rate limit with 429; the slots are this node's limit of the same kind
            response.header(HttpHeaderNames.RETRY_AFTER, "1");
            return reply(response, HttpResponseStatus.TOO_MANY_REQUESTS, requestId, e.getMessage());
        }
        if (e instanceof ArchiveClosedException) {
            return reply(response, HttpResponseStatus.SERVICE_UNAVAILABLE, requestId, "the store is closing");
        }
        if (e instanceof RemoteStoreException remoteError) {
            return reply(response, remoteStatus(remoteError.statusCode()), remoteError.statusCode(), requestId, remoteError.getMessage());
        }
        log.error("store query failed", e);
        return reply(response, HttpResponseStatus.INTERNAL_SERVER_ERROR, requestId, "internal error");
    }

    /**
     * Runs {@code step}, turning an {@link Error} (an OutOfMemoryError, say) into an exception: Reactor rethrows JVM
     * errors on the thread they happened on, where nobody answers the request, which then hangs.
     */
    private static <T> T contained(Supplier<T> step) {
        try {
            return step.get();
        } catch (VirtualMachineError | LinkageError e) {
            throw new IllegalStateException("store query failed: " + e, e);
        }
    }

    /**
     * The HTTP status of a failed remote query, as nwaku sends it: the query itself went through, so 200 with the
     * store's status in the body (its refusal 400 or 503, a malformed answer 300, a peer that cannot be reached or
     * does not answer 504), except the store's rate limit, 429, which is also the HTTP status.
     */
    static HttpResponseStatus remoteStatus(int code) {
        return code == HttpResponseStatus.TOO_MANY_REQUESTS.code() ? HttpResponseStatus.TOO_MANY_REQUESTS : HttpResponseStatus.OK;
    }

    /** The remote store to ask, or null for this node's own archive. */
    private static Multiaddr peerAddr(QueryParameters params) {
        String text = params.single("peerAddr", null);
        if (text == null || text.isEmpty()) {
            return null;
        }
        Multiaddr peer;
        try {
            peer = Multiaddr.parse(text.trim());
        } catch (MultiaddrFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("peerAddr is not a multiaddr: " + e.getMessage());
        }
        if (peer.peerId().isEmpty()) {
            throw new IllegalArgumentException("peerAddr must end in /p2p/<peer id>, was " + text);
        }
        return peer;
    }

    private StoreQuery parse(QueryParameters params) {
        for (String name : params.names()) {
            if (!PARAMETERS.contains(name)) {
                throw new IllegalArgumentException("unknown parameter '" + name + "'; parameters are "
                        + String.join(", ", PARAMETERS.stream().sorted().toList()));
            }
        }
        StoreQuery.Builder b = StoreQuery.builder();
        String pubsubTopic = params.single("pubsubTopic", null);
        if (pubsubTopic != null && !pubsubTopic.isEmpty()) {
            b.pubsubTopic(pubsubTopic);
        }
        b.contentTopics(params.list("contentTopics"));
        List<MessageHash> hashes = new ArrayList<>();
        for (String h : params.list("hashes")) {
            hashes.add(hash(h, "hashes"));
        }
        b.hashes(hashes);
        String start = params.single("startTime", null);
        if (start != null) {
            b.startTime(number(start, "startTime"));
        }
        String end = params.single("endTime", null);
        if (end != null) {
            b.endTime(number(end, "endTime"));
        }
        String cursor = params.single("cursor", null);
        if (cursor != null && !cursor.isEmpty()) {
            b.cursor(hash(cursor, "cursor"));
        }
        String pageSize = params.single("pageSize", null);
        if (pageSize != null) {
            long n = number(pageSize, "pageSize");
            if (n < 0) {
                throw new IllegalArgumentException("pageSize must not be negative, was " + pageSize);
            }
            // as nwaku: 0 means the default, more than the maximum means the maximum
            b.pageSize((int) Math.min(n, StoreQuery.MAX_PAGE_SIZE));
        }
        b.ascending(bool(params.single("ascending", "true"), "ascending"));
        b.includeData(bool(params.single("includeData", "false"), "includeData"));
        return b.build();
    }

    private Publisher<Void> reply(HttpServerResponse response, HttpResponseStatus status, String requestId, String desc) {
        return reply(response, status, status.code(), requestId, desc);
    }

    /** Store's answer with no messages: {@code storeStatus} in the body, which a remote query's answer may carry under a 200. */
    private Publisher<Void> reply(HttpServerResponse response, HttpResponseStatus status, int storeStatus, String requestId, String desc) {
        ObjectNode body = mapper.createObjectNode();
        body.put("requestId", requestId);
        body.put("statusCode", storeStatus);
        body.put("statusDesc", desc);
        body.putArray("messages");
        return Responses.json(response, mapper, status, body);
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
