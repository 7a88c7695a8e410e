package io.wakurelay.services;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.services.proto.StoreQueryRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * One Store v3 query on an inbound stream: decode, validate with the archive's {@link StoreQuery}, take a query
 * slot, run the query on the store's bounded scheduler (RocksDB reads block), encode the page there within the
 * response limit, and answer on the stream's event loop.
 */
final class StoreExchange extends ServerExchange {
    private static final Logger log = LoggerFactory.getLogger(StoreExchange.class);

    private final StoreService service;
    private final StoreMetrics metrics;

    StoreExchange(StoreService service) {
        super(service.config().maxRequestBytes(), service.config().requestTimeout(), service.rateLimiter(),
                service.metrics().service);
        this.service = service;
        this.metrics = service.metrics();
    }

    @Override
    void handle(Stream stream, ByteBuf request) {
        StoreQueryRequest decoded = decode(stream, request, StoreQueryRequest.parser(), "StoreQueryRequest");
        if (decoded == null) {
            return;
        }
        String requestId = decoded.getRequestId();
        metrics.queries.increment();
        StoreQuery query;
        try {
            query = StoreCodec.toQuery(decoded);
        } catch (InvalidQueryException e) {
            respond(status(stream.alloc(), requestId, StoreStatus.BAD_REQUEST, e.getMessage()));
            return;
        }
        if (service.isClosing()) {
            respond(status(stream.alloc(), requestId, StoreStatus.SERVICE_UNAVAILABLE, "the store is shutting down"));
            return;
        }
        if (!service.queryLimit().tryAcquire()) {
            // a limit passed: nwaku answers its store rate limit with 429 too
            respond(status(stream.alloc(), requestId, StoreStatus.TOO_MANY_REQUESTS,
                    "too many store queries at once (at most " + service.queryLimit().max() + "); try again"));
            return;
        }
        ByteBufAllocator alloc = stream.alloc();
        int maxBytes = service.maxResponseBytes();
        Mono.fromCallable(() -> readPage(query, maxBytes))
                .subscribeOn(service.queryScheduler())
                .map(result -> {
                    StoreCodec.Page page = StoreCodec.page(requestId, query, result, maxBytes);
                    // cut here, or by the archive at the byte budget (a cursor on a page short of its size)
                    boolean cutByArchive = result.paginationCursor() != null && result.messages().size() < query.pageSize();
                    if (page.truncated() || cutByArchive) {
                        metrics.truncatedPages.increment();
                    }
                    return Frames.lengthPrefixed(alloc, page.response());
                })
                .doFinally(signal -> service.queryLimit().release())
                .subscribe(this::respond, e -> respond(queryFailed(alloc, requestId, e)));
    }

    private ByteBuf queryFailed(ByteBufAllocator alloc, String requestId, Throwable e) {
        if (e instanceof InvalidQueryException) { // the cursor is not a stored message
            return status(alloc, requestId, StoreStatus.BAD_REQUEST, e.getMessage());
        }
        if (e instanceof ArchiveClosedException || e instanceof RejectedExecutionException) {
            return status(alloc, requestId, StoreStatus.SERVICE_UNAVAILABLE, "the store is shutting down");
        }
        if (e instanceof ArchiveStorageException) {
            log.warn("store query failed: {}", e.getMessage());
            return status(alloc, requestId, StoreStatus.SERVICE_UNAVAILABLE, "the archive cannot be read now");
        }
        log.warn("store query failed", e);
        return status(alloc, requestId, StoreStatus.INTERNAL_ERROR, "internal error");
    }

    private ByteBuf status(ByteBufAllocator alloc, String requestId, StoreStatus status, String description) {
        metrics.error(status);
        return Frames.lengthPrefixed(alloc, StoreCodec.status(requestId, status, description));
    }

    @Override
    ByteBuf failureResponse(Stream stream, Failure failure, String description) {
        StoreStatus status = switch (failure) {
            case MALFORMED, TOO_LARGE, TRUNCATED -> StoreStatus.BAD_REQUEST;
            case RATE_LIMITED -> StoreStatus.TOO_MANY_REQUESTS;
            case INTERNAL -> StoreStatus.INTERNAL_ERROR;
        };
        return status(stream.alloc(), UNKNOWN_REQUEST_ID, status, description);
    }

    @Override
    void onTimeout() {
        metrics.timeout();
    }

    /**
     * One page of {@code query}, read under the response's byte budget: the archive stops the page once its
     * messages' stored bytes would pass {@code maxBytes}, so a query never holds more than about one response of
     * messages in memory; {@link StoreCodec#page} then trims what the encoding overhead pushes past the limit. Either
     * cut counts as a truncated page.
     */
    private StoreResponse readPage(StoreQuery query, int maxBytes) {
        try (StorePage page = service.archive().openPage(query, maxBytes)) {
            List<StoredMessage> messages = new ArrayList<>(page.size());
            page.forEachRemaining(messages::add);
            return new StoreResponse(messages, page.paginationCursor());
        }
    }
}
