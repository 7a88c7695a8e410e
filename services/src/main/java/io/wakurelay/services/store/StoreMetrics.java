package io.wakurelay.services.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceMetrics;
import java.util.EnumMap;
import java.util.Map;

/**
 * The Store v3 server's meters: nwaku's {@code waku_store_queries_total} and {@code waku_store_errors_total{type}}
 * ({@code waku_store/protocol_metrics.nim}), the pages a response limit cut short, and the {@code waku_service_*}
 * meters of {@value StoreServiceConfig#PROTOCOL_ID}.
 */
final class StoreMetrics {
    /** {@code type} of {@code waku_store_errors_total} for a peer that sent no whole request in time. */
    static final String TIMEOUT = "timeout";

    final ServiceMetrics service;
    final Counter queries;
    final Counter truncatedPages;
    private final Map<StoreStatus, Counter> errors = new EnumMap<>(StoreStatus.class);
    private final Counter timeouts;

    StoreMetrics(Meters meters) {
        MeterRegistry registry = meters.registry();
        service = new ServiceMetrics(meters, StoreServiceConfig.PROTOCOL_ID);
        queries = meters.add(Counter.builder("waku.store.queries")
                .description("store queries received and decoded").register(registry));
        truncatedPages = meters.add(Counter.builder("waku.store.pages.truncated")
                .description("pages that ended early, with a cursor, because the whole page would exceed the response limit")
                .register(registry));
        for (StoreStatus s : new StoreStatus[]{StoreStatus.BAD_REQUEST, StoreStatus.TOO_MANY_REQUESTS,
                StoreStatus.INTERNAL_ERROR, StoreStatus.SERVICE_UNAVAILABLE}) {
            errors.put(s, meters.add(error(registry, s.label())));
        }
        timeouts = meters.add(error(registry, TIMEOUT));
    }

    private static Counter error(MeterRegistry registry, String type) {
        return Counter.builder("waku.store.errors").tag("type", type)
                .description("store requests answered with an error status, or reset, by type").register(registry);
    }

    void error(StoreStatus status) {
        Counter c = errors.get(status);
        if (c != null) {
            c.increment();
        }
    }

    void timeout() {
        timeouts.increment();
    }
}
