package io.wakurelay.node.store;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.archive.StoreQuery;

/**
 * The node's Store query service, shared by every way a query arrives (REST's {@code GET /store/v3/messages};
 * {@code /vac/waku/store-query/3.0.0} takes the same {@link #slots()}): a query takes one of {@link StoreLimits#maxConcurrentQueries()}
 * slots and opens one page of at most {@link StoreLimits#maxPageBytes()} stored bytes, which the caller then
 * writes out message by message and closes.
 */
public final class StoreQueries {
    private final MessageArchive archive;
    private final StoreLimits limits;
    private final QuerySlots limiter;

    public StoreQueries(MessageArchive archive, StoreLimits limits, MeterRegistry registry) {
        this.archive = archive;
        this.limits = limits;
        this.limiter = new QuerySlots(limits.maxConcurrentQueries());
        Gauge.builder("waku.store.queries.running", limiter, QuerySlots::running)
                .description("store queries being answered (their pages open)").register(registry);
        FunctionCounter.builder("waku.store.queries.refused", limiter, QuerySlots::refused)
                .description("store queries refused because every query slot was taken").register(registry);
    }

    /**
     * Takes a slot and opens one page of {@code query}; closing the result frees the slot.
     *
     * @throws StoreBusyException when every slot is taken
     * @throws io.wakurelay.archive.InvalidQueryException   when the cursor is not a stored message
     * @throws io.wakurelay.archive.ArchiveClosedException  when the archive is closed
     * @throws io.wakurelay.archive.ArchiveStorageException when RocksDB fails to read
     */
    public OpenQuery open(StoreQuery query) {
        if (!limiter.tryAcquire()) {
            throw new StoreBusyException("the node is answering " + limiter.max() + " store queries already (--store-max-queries); retry shortly");
        }
        try {
            return OpenQuery.local(archive.openPage(query, limits.maxPageBytes()), limiter);
        } catch (RuntimeException | Error e) {
            limiter.release();
            throw e;
        }
    }

    public StoreLimits limits() {
        return limits;
    }

    public int running() {
        return limiter.running();
    }

    /** The node's query slots, shared with the Store v3 protocol server so that one bound holds for both. */
    public QuerySlots slots() {
        return limiter;
    }
}
