package io.wakurelay.services.filter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.wakurelay.protocol.LatencyBuckets;
import io.wakurelay.services.Meters;
import io.wakurelay.services.ServiceMetrics;
import io.wakurelay.services.proto.FilterSubscribeRequest.FilterSubscribeType;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The filter v2 server's meters: nwaku's {@code waku_filter_requests_total{type}},
 * {@code waku_filter_errors_total{type}}, {@code waku_filter_subscriptions}, {@code waku_filter_request_duration_seconds}
 * and {@code waku_filter_handle_message_duration_seconds} ({@code waku_filter_v2/protocol_metrics.nim}); the
 * pushes, drops and removed subscribers; and the {@code waku_service_*} meters of the subscribe protocol.
 */
final class FilterMetrics {
    /** Error types besides the status codes. */
    static final String DECODE_FAILURE = "decode_rpc_failure";
    static final String TIMEOUT = "timeout";

    final ServiceMetrics service;
    final Timer handleMessage;
    final Counter pushes;
    final Counter pushFailures;
    final Counter pushDrops;
    private final Map<FilterSubscribeType, Counter> requests = new EnumMap<>(FilterSubscribeType.class);
    private final Map<FilterSubscribeType, Timer> durations = new EnumMap<>(FilterSubscribeType.class);
    private final Map<String, Counter> errors = new java.util.HashMap<>();
    private final Map<FilterRemoval, Counter> removals = new EnumMap<>(FilterRemoval.class);

    FilterMetrics(Meters meters, Supplier<Number> subscribers, Supplier<Number> criteria) {
        MeterRegistry registry = meters.registry();
        service = new ServiceMetrics(meters, FilterConfig.SUBSCRIBE_PROTOCOL_ID);
        for (FilterSubscribeType type : FilterSubscribeType.values()) {
            if (type == FilterSubscribeType.UNRECOGNIZED) {
                continue;
            }
            requests.put(type, meters.add(Counter.builder("waku.filter.requests").tag("type", type.name())
                    .description("filter subscribe requests received, by type").register(registry)));
            durations.put(type, meters.add(Timer.builder("waku.filter.request.duration").tag("type", type.name())
                    .description("time to handle a filter subscribe request, by type")
                    .serviceLevelObjectives(LatencyBuckets.between(Duration.ofNanos(10_000), Duration.ofMillis(100)))
                    .register(registry)));
        }
        for (FilterStatus s : FilterStatus.values()) {
            if (s != FilterStatus.SUCCESS) {
                errors.put(s.label(), meters.add(error(registry, s.label())));
            }
        }
        errors.put(DECODE_FAILURE, meters.add(error(registry, DECODE_FAILURE)));
        errors.put(TIMEOUT, meters.add(error(registry, TIMEOUT)));
        meters.add(Gauge.builder("waku.filter.subscriptions", subscribers).strongReference(true)
                .description("subscribed filter clients (peers)").register(registry));
        meters.add(Gauge.builder("waku.filter.criteria", criteria).strongReference(true)
                .description("(pubsub topic, content topic) criteria held for all subscribers").register(registry));
        handleMessage = meters.add(Timer.builder("waku.filter.handle.message.duration")
                .description("time to hand one accepted message to its subscribers' push queues")
                .serviceLevelObjectives(LatencyBuckets.between(Duration.ofNanos(1_000), Duration.ofMillis(10))).register(registry));
        pushes = meters.add(Counter.builder("waku.filter.pushes")
                .description("messages written to subscribers (one per subscriber per message)").register(registry));
        pushFailures = meters.add(Counter.builder("waku.filter.push.failures")
                .description("pushes queued for a subscriber whose push stream then failed or closed").register(registry));
        pushDrops = meters.add(Counter.builder("waku.filter.push.drops")
                .description("pushes not sent because the subscriber had too much not yet taken").register(registry));
        for (FilterRemoval r : FilterRemoval.values()) {
            removals.put(r, meters.add(Counter.builder("waku.filter.subscribers.removed").tag("reason", r.label())
                    .description("subscribers whose subscription ended, by reason").register(registry)));
        }
    }

    private static Counter error(MeterRegistry registry, String type) {
        return Counter.builder("waku.filter.errors").tag("type", type)
                .description("filter subscribe requests answered with an error status, or reset, by type").register(registry);
    }

    void request(FilterSubscribeType type, long startNanos) {
        Counter c = requests.get(type);
        if (c != null) {
            c.increment();
            durations.get(type).record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        }
    }

    void error(String type) {
        Counter c = errors.get(type);
        if (c != null) {
            c.increment();
        }
    }

    void removed(FilterRemoval reason) {
        removals.get(reason).increment();
    }
}
