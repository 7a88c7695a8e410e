package io.wakurelay.services.filter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.services.Meters;
import io.wakurelay.services.filter.FilterRequestException.Kind;
import io.wakurelay.services.proto.FilterSubscribeRequest.FilterSubscribeType;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The filter client's meters (docs/metrics.md): its requests by type and outcome, the criteria and requests it
 * holds, the pushes it received by outcome and the re-subscriptions after a failed refresh. Every label value is
 * registered at start.
 */
final class FilterClientMetrics {
    static final String SUCCESS = "success";
    /** Push outcomes besides {@link #ACCEPTED}. */
    static final String ACCEPTED = "accepted";
    static final String UNSOLICITED = "unsolicited";
    static final String MALFORMED = "malformed";
    static final String TOO_LARGE = "too_large";
    /** A push stream from a peer this node did not subscribe through: reset unread (counted per stream). */
    static final String NOT_SERVICE_PEER = "not_service_peer";
    /** A pushed message that fails the relay's validation rules. */
    static final String INVALID = "invalid";

    private final Map<String, Counter> requests = new HashMap<>();
    private final Map<String, Counter> pushes = new HashMap<>();
    final Counter resubscriptions;

    FilterClientMetrics(Meters meters, Supplier<Number> criteria, Supplier<Number> inFlight) {
        MeterRegistry registry = meters.registry();
        for (FilterSubscribeType type : FilterSubscribeType.values()) {
            if (type == FilterSubscribeType.UNRECOGNIZED) {
                continue;
            }
            requests.put(key(type, SUCCESS), meters.add(request(registry, type, SUCCESS)));
            for (Kind kind : Kind.values()) {
                requests.put(key(type, label(kind)), meters.add(request(registry, type, label(kind))));
            }
        }
        for (String outcome : new String[]{ACCEPTED, UNSOLICITED, MALFORMED, TOO_LARGE, NOT_SERVICE_PEER, INVALID}) {
            pushes.put(outcome, meters.add(Counter.builder("waku.filter.client.pushes").tag("outcome", outcome)
                    .description("pushes received from filter service nodes, by outcome").register(registry)));
        }
        meters.add(Gauge.builder("waku.filter.client.criteria", criteria).strongReference(true)
                .description("(pubsub topic, content topic) pairs this node is subscribed to at its filter service node")
                .register(registry));
        meters.add(Gauge.builder("waku.filter.client.requests.in.flight", inFlight).strongReference(true)
                .description("filter requests to the service node under way").register(registry));
        resubscriptions = meters.add(Counter.builder("waku.filter.client.resubscriptions")
                .description("times every subscription was sent again because a refresh ping failed").register(registry));
    }

    private static Counter request(MeterRegistry registry, FilterSubscribeType type, String outcome) {
        return Counter.builder("waku.filter.client.requests").tag("type", type.name()).tag("outcome", outcome)
                .description("filter requests sent to the service node, by type and outcome").register(registry);
    }

    private static String key(FilterSubscribeType type, String outcome) {
        return type.name() + "/" + outcome;
    }

    static String label(Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    void request(FilterSubscribeType type, String outcome) {
        requests.get(key(type, outcome)).increment();
    }

    void push(String outcome) {
        pushes.get(outcome).increment();
    }
}
