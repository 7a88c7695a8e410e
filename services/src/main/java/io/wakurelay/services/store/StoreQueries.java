package io.wakurelay.services.store;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.archive.StoreQuery;

/**
 * The node's one Store door, whichever way a query arrives: REST's {@code GET /store/v3/messages} and the Store v3
 * server ({@link StoreService}) both call {@link #open}. A query takes one of
 * {@link StoreLimits#maxConcurrentQueries()} slots and opens one page of at most {@link StoreLimits#maxPageBytes()}
 * stored bytes, which the caller then writes out as it reads it, message by message, and closes (its slot with it).
 * Opening and reading block on the archive: both callers do it on Reactor's bounded elastic scheduler, never on an
 * event loop.
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
     * @throws StoreBusyException when every slot is taken (REST and Store v3 answer it 429, as nwaku answers its
     *                            store's limit)
     * @throws io.wakurelay.archive.InvalidQueryException   when the cursor is not a stored message
     * @throws io.wakurelay.archive.ArchiveClosedException  when the archive is closed
     * @throws io.wakurelay.archive.ArchiveStorageException when the archive fails to read
     */
    public OpenQuery open(StoreQuery query) {
        if (!limiter.tryAcquire()) {
            throw new StoreBusyException("the node is answering " + limiter.max()
                    + " store queries already (--store-max-queries); retry shortly");
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

    /** Queries holding a slot now. */
    public int running() {
        return limiter.running();
    }

    /** Removes the meters; the archive is its owner's to close. Call after every way in has stopped. */
    @Override
    public void close() {
        registry.remove(running);
        registry.remove(refused);
    }
}
