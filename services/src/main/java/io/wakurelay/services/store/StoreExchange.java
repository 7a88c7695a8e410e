package io.wakurelay.services.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.InvalidQueryException;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.proto.StoreQueryRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.util.concurrent.RejectedExecutionException;

/**
 * One Store v3 query on an inbound stream: decode, validate with the archive's {@link StoreQuery}, then, on the
 * scheduler every Store query runs on (Reactor's bounded elastic, as REST's: RocksDB and PostgreSQL reads block),
 * open the page through the node's one Store door ({@link StoreQueries#open}: its slot, its byte budget) and encode
 * it as it is read ({@link StorePageEncoder}); the answer is written on the stream's event loop, and the page (its
 * slot) is closed once it is written or the stream ends.
 */
final class StoreExchange extends ServerExchange {
    private static final Logger log = LoggerFactory.getLogger(StoreExchange.class);

    private final StoreService service;
    private final StoreMetrics metrics;

    StoreExchange(StoreService service) {
        super(service.exchangeLimits());
        this.service = service;
        this.metrics = service.metrics();
    }

    @Override
    protected void handle(Stream stream, ByteBuf request) {
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
        ByteBufAllocator alloc = stream.alloc();
        Mono.fromCallable(() -> answer(alloc, requestId, query))
                .subscribeOn(Schedulers.boundedElastic())
                .subscribe(answer -> respond(answer.frame(), answer.page()::close),
                        e -> respond(queryFailed(alloc, requestId, e)));
    }

    /** A page and its encoding, the page to be closed once its encoding is written. */
    private record Answer(ByteBuf frame, OpenQuery page) {
    }

    private Answer answer(ByteBufAllocator alloc, String requestId, StoreQuery query) {
        OpenQuery page = service.queries().open(query);
        try {
            StorePageEncoder.Encoded encoded = StorePageEncoder.encode(alloc, requestId, query, page,
                    service.maxResponseBytes());
            // cut here, or by the archive at the byte budget (a cursor on a page short of its size)
            boolean cutByArchive = page.paginationCursor() != null && page.size() < query.pageSize();
            if (encoded.truncated() || cutByArchive) {
                metrics.truncatedPages.increment();
            }
            return new Answer(encoded.frame(), page);
        } catch (RuntimeException | Error e) {
            page.close();
            throw e;
        }
    }

    private ByteBuf queryFailed(ByteBufAllocator alloc, String requestId, Throwable e) {
        if (e instanceof StoreBusyException) {
            // the one Store door's limit, answered as nwaku answers its store's limit (REST: 429 too)
            return status(alloc, requestId, StoreStatus.TOO_MANY_REQUESTS, e.getMessage());
        }
        if (e instanceof InvalidQueryException) { // the cursor is not a stored message
            return status(alloc, requestId, StoreStatus.BAD_REQUEST, e.getMessage());
        }
        if (e instanceof ArchiveClosedException || e instanceof RejectedExecutionException) {
            return status(alloc, requestId, StoreStatus.SERVICE_UNAVAILABLE, "the store is shutting down");
        }
        if (e instanceof ArchiveStorageException) {
            log.atWarn().addKeyValue("reason", e.getMessage()).log("store query failed");
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
    protected ByteBuf failureResponse(Stream stream, Failure failure, String description) {
        StoreStatus status = switch (failure) {
            case MALFORMED, TOO_LARGE, TRUNCATED -> StoreStatus.BAD_REQUEST;
            case RATE_LIMITED -> StoreStatus.TOO_MANY_REQUESTS;
            case INTERNAL -> StoreStatus.INTERNAL_ERROR;
        };
        return status(stream.alloc(), UNKNOWN_REQUEST_ID, status, description);
    }

    @Override
    protected void onTimeout() {
        metrics.timeout();
    }
}
