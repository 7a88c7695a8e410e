package io.wakurelay.services.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.p2p.Host;
import io.wakurelay.services.PeerRateLimiter;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.ServiceLifecycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Objects;

/**
 * The Store v3 server, {@value StoreServiceConfig#PROTOCOL_ID} (rfc-index core/13): answers each peer's
 * {@code StoreQueryRequest} through the node's one Store door ({@link StoreQueries}, REST's too: the same query
 * code, slots, byte budget and scheduler), one response per stream, then closes its side. Bounded by
 * {@link StoreServiceConfig} (request size, per-peer rate: 429) and by {@link StoreLimits} (queries at once: 429;
 * response size: a page that would exceed it ends early with a cursor). docs/services.md describes statuses, limits
 * and metrics.
 *
 * <p>Started, it serves the protocol on the host (and identify advertises it); shut down, it no longer does.
 */
public final class StoreService implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StoreService.class);
    /** The grace period of {@link #close()}. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);

    private final StoreServiceConfig config;
    private final StoreQueries queries;
    private final ServiceLifecycle lifecycle;
    private final StoreMetrics metrics;
    private final PeerRateLimiter rateLimiter;

    private StoreService(StoreServiceConfig config, Host host, StoreQueries queries, MeterRegistry registry) {
        this.config = config;
        this.queries = queries;
        this.lifecycle = ServiceLifecycle.service(StoreService.class, "store service", host, registry);
        this.metrics = new StoreMetrics(lifecycle.meters());
        this.rateLimiter = new PeerRateLimiter(config.rateLimit(), System::nanoTime);
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
        service.lifecycle.serve(StoreServiceConfig.PROTOCOL_ID, stream -> new StoreExchange(service));
        log.atInfo().addKeyValue("protocol", StoreServiceConfig.PROTOCOL_ID)
                .addKeyValue("maxResponseBytes", service.maxResponseBytes())
                .addKeyValue("maxConcurrentQueries", queries.limits().maxConcurrentQueries())
                .addKeyValue("rateLimit", String.valueOf(config.rateLimit())).log("store service started");
        return service;
    }

    public StoreServiceConfig config() {
        return config;
    }

    /** Store queries running now (this protocol's and REST's: one set of slots). */
    public int runningQueries() {
        return queries.running();
    }

    /** The one Store door the exchanges open their pages through. */
    StoreQueries queries() {
        return queries;
    }

    /** The page budget as a response limit: the encoded response stays within it. */
    int maxResponseBytes() {
        return (int) Math.min(queries.limits().maxPageBytes(), Integer.MAX_VALUE - 16);
    }

    StoreMetrics metrics() {
        return metrics;
    }

    /** What bounds each of its exchanges: request size, time, each peer's rate. */
    ServerExchange.Limits exchangeLimits() {
        return new ServerExchange.Limits(config.maxRequestBytes(), config.requestTimeout(), rateLimiter, metrics.service);
    }

    boolean isClosing() {
        return lifecycle.isClosing();
    }

    /**
     * Stops serving: the protocol is no longer offered (new streams are refused during negotiation), queries that
     * arrive on streams already open are answered 503, and the running ones may finish within {@code grace}; then
     * the meters are removed. Idempotent; completes when done.
     */
    public Mono<Void> shutdown(Duration grace) {
        return lifecycle.shutdown(grace, g -> Flux.interval(Duration.ofMillis(10))
                .takeUntil(tick -> queries.running() == 0)
                .then()
                .timeout(g.isZero() ? Duration.ofMillis(1) : g, Mono.empty()), () -> { });
    }

    /** {@code shutdown(DEFAULT_SHUTDOWN_GRACE)}, blocking. */
    @Override
    public void close() {
        shutdown(DEFAULT_SHUTDOWN_GRACE).block(DEFAULT_SHUTDOWN_GRACE.plusSeconds(10));
    }
}
