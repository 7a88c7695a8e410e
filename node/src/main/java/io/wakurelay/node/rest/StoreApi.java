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
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.UnknownCursorException;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.multiaddr.MultiaddrFormatException;
import io.wakurelay.services.store.OpenQuery;
import io.wakurelay.services.store.RemoteStoreException;
import io.wakurelay.services.store.StoreBusyException;
import io.wakurelay.services.store.StoreQueries;
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
import java.util.List;
import java.util.function.Supplier;

/** {@code GET /store/v3/messages}: Store v3 queries over the archive, in nwaku's REST shape. */
final class StoreApi {
    private static final Logger log = LoggerFactory.getLogger(StoreApi.class);
    /** nwaku's words for a cursor that is not stored (its archive driver's error, through the self-store request). */
    static final String CURSOR_NOT_FOUND = "error in handleSelfStoreRequest: BAD_RESPONSE: archive error: DRIVER_ERROR: cursor not found";
    private static final String PEER_ADDR_ERROR = "Failed parsing remote peer info: ";

    /** How long one chunk of an answer may wait for the client to take it before the answer is cut (its slot freed). */
    static final Duration WRITE_STALL_TIMEOUT = Duration.ofSeconds(20);

    private final StoreQueries queries;
    private final RemoteStore remote;
    private final Multiaddr storeNode;
    private final ObjectMapper mapper;

    /**
     * @param queries   null when the node does not archive
     * @param remote    asks other nodes' stores ({@code peerAddr})
     * @param storeNode the store asked without {@code peerAddr} when {@code queries} is null ({@code --storenode}), as
     *                  nwaku asks its store service peer; null: none
     */
    StoreApi(StoreQueries queries, RemoteStore remote, Multiaddr storeNode, ObjectMapper mapper) {
        this.queries = queries;
        this.remote = remote;
        this.storeNode = storeNode;
        this.mapper = mapper;
    }

    Publisher<Void> query(HttpServerRequest request, HttpServerResponse response) {
        boolean json = Responses.acceptsJson(request);
        QueryParameters params;
        try {
            params = QueryParameters.of(request.uri());
        } catch (IllegalArgumentException e) { // a broken %-escape in the query string
            return refuse(response, json, HttpResponseStatus.BAD_REQUEST, "", e.getMessage());
        }
        String requestId;
        try {
            requestId = params.first("requestId", "");
        } catch (IllegalArgumentException e) { // a broken requestId: nothing to echo
            return refuse(response, json, HttpResponseStatus.BAD_REQUEST, "", e.getMessage());
        }
        StoreQueryParser.Parsed parsed;
        Multiaddr peer;
        try {
            // nwaku parses the query before peerAddr, so a query that is wrong in both is refused for the query
            parsed = StoreQueryParser.parse(params);
            peer = peerAddr(params);
        } catch (IllegalArgumentException e) { // InvalidQueryException is one
            return refuse(response, json, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage());
        }
        if (peer == null && queries == null) {
            peer = storeNode; // nwaku: no store of its own and no peerAddr, so its store service peer
        }
        if (peer == null && queries == null) {
            // nwaku's answer when it has no store of its own and no store peer to ask (rest_api/endpoint/store/handlers.nim)
            return reply(response, HttpResponseStatus.PRECONDITION_FAILED, requestId,
                    "this node does not archive messages (it was started with --store=false); give peerAddr to ask another node");
        }
        StoreQuery query = parsed.query();
        // RocksDB reads block; they never run on the network threads. The page is opened first (its slot, index
        // entries and cursor), so that any failure until then still gets a JSON answer; then it is written out as
        // it is read, one chunk at a time as the client takes them, and closed (freeing its slot) however that ends.
        // A remote page arrives whole (bounded by the store client's response limit) and is written out the same way.
        boolean includeData = query != null && query.includeData();
        Mono<OpenQuery> open = parsed.matchesNothing()
                ? Mono.fromCallable(() -> OpenQuery.remote(new StoreResponse(List.of(), null)))
                : peer != null
                ? remote.open(peer, query, requestId)
                : Mono.fromCallable(() -> contained(() -> queries.open(query))).subscribeOn(Schedulers.boundedElastic());
        return Mono.usingWhen(open, page -> stream(response, page, includeData, requestId),
                        page -> Mono.fromRunnable(page::close), (page, error) -> Mono.fromRunnable(page::close),
                        page -> Mono.fromRunnable(page::close))
                .doOnDiscard(OpenQuery.class, OpenQuery::close) // opened after the client went away
                // a client that hung up goes on to RestServer, which logs it quietly; nothing can be sent to it
                .onErrorResume(e -> !response.hasSentHeaders() && !(e instanceof AbortedException), e -> Mono.from(failed(response, json, requestId, e)));
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

    /**
     * The answer to a query that failed before its first byte was sent, never a dropped request: nwaku's words as
     * text/plain for what nwaku refuses so (JSON for a client that asks for it), the store's JSON shape otherwise.
     */
    private Publisher<Void> failed(HttpServerResponse response, boolean json, String requestId, Throwable e) {
        if (e instanceof UnknownCursorException) {
            // nwaku: 500 with its driver's words; ours would say more, but scripts look for these
            return refuse(response, json, HttpResponseStatus.INTERNAL_SERVER_ERROR, requestId, CURSOR_NOT_FOUND);
        }
        if (e instanceof InvalidQueryException) {
            return refuse(response, json, HttpResponseStatus.BAD_REQUEST, requestId, e.getMessage());
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
        String text = params.first("peerAddr", "");
        if (text.isEmpty()) {
            return null;
        }
        // nwaku's words (parseUrlPeerAddr and parsePeerInfo in waku_core/peers.nim), which scripts compare
        Multiaddr peer;
        try {
            peer = Multiaddr.parse(text.trim());
        } catch (MultiaddrFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException(PEER_ADDR_ERROR + "MultiAddress.init [" + e.getMessage() + "]");
        }
        if (peer.peerId().isEmpty()) {
            throw new IllegalArgumentException(PEER_ADDR_ERROR + "Error in parsePeerInfo: p2p part should contain / [p2pPartStr:] [peer:"
                    + text.trim() + "]");
        }
        return peer;
    }

    /**
     * A refused query: nwaku's text/plain words, or, for a client that asks for JSON ({@code Accept: application/json}),
     * the store's answer shape with the same words in {@code statusDesc} and {@code error}.
     */
    private Publisher<Void> refuse(HttpServerResponse response, boolean json, HttpResponseStatus status, String requestId, String text) {
        if (!json) {
            return Responses.text(response, status, text);
        }
        ObjectNode body = mapper.createObjectNode();
        body.put("requestId", requestId);
        body.put("statusCode", status.code());
        body.put("statusDesc", text);
        body.put("error", text);
        body.putArray("messages");
        return Responses.json(response, mapper, status, body);
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
}
