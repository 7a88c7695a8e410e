package io.wakurelay.services;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.QuerySlots;
import io.wakurelay.p2p.Host;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.Objects;

/**
 * The Store v3 server, {@value StoreServiceConfig#PROTOCOL_ID} (rfc-index core/13): answers each peer's
 * {@code StoreQueryRequest} from the archive with the same query code as the REST store, one response per stream,
 * then closes its side. Bounded by {@link StoreServiceConfig}: request size, per-peer rate (429), queries at once
 * (503), and response size (a page that would exceed it ends early with a cursor). docs/services.md describes
 * statuses, limits and metrics.
 *
 * <p>Started, it serves the protocol on the host (and identify advertises it); shut down, it no longer does.
 */
public final class StoreService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoreService.class);
    /** The grace period of {@link #close()}. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

    private final StoreServiceConfig config;
    private final Host host;
    private final StoreQueries queries;
    private final Meters meters;
    private final StoreMetrics metrics;
    private final PeerRateLimiter rateLimiter;
    private final QuerySlots queryLimit;
    private final Scheduler queryScheduler;
    private volatile boolean closing;
    private volatile Mono<Void> shutdown;

    private StoreService(StoreServiceConfig config, Host host, StoreQueries queries, MeterRegistry registry) {
        this.config = config;
        this.host = host;
        this.queries = queries;
        this.meters = new Meters(registry);
        this.metrics = new StoreMetrics(meters);
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
        this.queryLimit = queries.slots();
        // the slots keep at most slots.max() tasks here: a thread each, no queue beyond them
        this.queryScheduler = Schedulers.newBoundedElastic(queryLimit.max(), queryLimit.max(),
                "store-query", 60, true);
    }

    /**
     * Starts serving {@value StoreServiceConfig#PROTOCOL_ID} on {@code host}, answering from {@code queries}: the
     * node's one Store query service, whose slots and page budget hold for this protocol and REST alike.
     *
     * @param registry where the service registers its meters (docs/services.md); removed at shutdown
     */
    public static StoreService start(StoreServiceConfig config, Host host, StoreQueries queries, MeterRegistry registry) {
        StoreService service = new StoreService(Objects.requireNonNull(config, "config"),
                Objects.requireNonNull(host, "host"), Objects.requireNonNull(queries, "queries"),
                Objects.requireNonNull(registry, "registry"));
        host.handle(StoreServiceConfig.PROTOCOL_ID, stream -> new StoreExchange(service));
        log.info("store service started: {} (page limit {} bytes, {} queries at once, rate {} per peer)",
                StoreServiceConfig.PROTOCOL_ID, service.maxResponseBytes(), queries.limits().maxConcurrentQueries(),
                config.rateLimit());
        return service;
    }

    public StoreServiceConfig config() {
        return config;
    }

    /** Queries running now. */
    public int runningQueries() {
        return queryLimit.running();
    }

    MessageArchive archive() {
        return queries.archive();
    }

    /** The page budget as a response limit: the encoded response stays within it. */
    int maxResponseBytes() {
        return (int) Math.min(queries.limits().maxPageBytes(), Integer.MAX_VALUE - 16);
    }

    StoreMetrics metrics() {
        return metrics;
    }

    PeerRateLimiter rateLimiter() {
        return rateLimiter;
    }

    QuerySlots queryLimit() {
        return queryLimit;
    }

    Scheduler queryScheduler() {
        return queryScheduler;
    }

    boolean isClosing() {
        return closing;
    }

    /**
     * Stops serving: the protocol is no longer offered (new streams are refused during negotiation), queries that
     * arrive on streams already open are answered 503, and the running ones may finish within {@code grace}. Then
     * the query threads stop and the meters are removed. Idempotent; completes when done.
     */
    public Mono<Void> shutdown(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        return Mono.defer(() -> {
            synchronized (this) {
                if (shutdown == null) {
                    closing = true;
                    host.unhandle(StoreServiceConfig.PROTOCOL_ID);
                    shutdown = Flux.interval(Duration.ofMillis(10))
                            .takeUntil(tick -> queryLimit.running() == 0)
                            .then()
                            .timeout(grace.isZero() ? Duration.ofMillis(1) : grace, Mono.empty())
                            .doFinally(signal -> {
                                queryScheduler.dispose();
                                meters.removeAll();
                                log.info("store service shut down");
                            })
                            .cache();
                }
                return shutdown;
            }
        });
    }

    /** {@code shutdown(DEFAULT_SHUTDOWN_GRACE)}, blocking. */
    @Override
    public void close() {
        shutdown(DEFAULT_SHUTDOWN_GRACE).block(DEFAULT_SHUTDOWN_GRACE.plusSeconds(10));
    }
}
