package io.wakurelay.services;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.archive.StoreQuery;

/**
 * The node's Store query service, the one door of every way a query arrives: REST's {@code GET /store/v3/messages}
 * calls {@link #open}, and the Store v3 server ({@link StoreService}) takes the same {@link #slots()} and page budget.
 * A query takes one of {@link StoreLimits#maxConcurrentQueries()} slots and opens one page of at most
 * {@link StoreLimits#maxPageBytes()} stored bytes, which the caller then writes out message by message and closes.
 */
public final class StoreQueries implements AutoCloseable {
    private final MessageArchive archive;
    private final StoreLimits limits;
    private final QuerySlots limiter;
    private final MeterRegistry registry;
    private final Gauge running;
    private final FunctionCounter refused;

    public StoreQueries(MessageArchive archive, StoreLimits limits, MeterRegistry registry) {
        this.archive = archive;
        this.limits = limits;
        this.limiter = new QuerySlots(limits.maxConcurrentQueries());
        this.registry = registry;
        this.running = Gauge.builder("waku.store.queries.running", limiter, QuerySlots::running)
                .description("store queries being answered (their pages open)").register(registry);
        this.refused = FunctionCounter.builder("waku.store.queries.refused", limiter, QuerySlots::refused)
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

    /** The archive the queries read. */
    public MessageArchive archive() {
        return archive;
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

    /** Removes the meters; the archive is its owner's to close. Call after every way in has stopped. */
    @Override
    public void close() {
        registry.remove(running);
        registry.remove(refused);
    }
}
