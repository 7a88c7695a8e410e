package io.wakurelay.services.peerexchange;

import io.wakurelay.services.Meters;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.EnumMap;
import java.util.Map;

/**
 * The peer exchange client's meters: nwaku's {@code waku_px_client_errors{type}}, requests that got no records. What
 * became of the records received is counted by discovery's peer exchange finder.
 */
final class PeerExchangeClientMetrics {
    private final Map<PeerExchangeException.Kind, Counter> errors = new EnumMap<>(PeerExchangeException.Kind.class);

    PeerExchangeClientMetrics(Meters meters) {
        MeterRegistry registry = meters.registry();
        for (PeerExchangeException.Kind kind : PeerExchangeException.Kind.values()) {
            errors.put(kind, meters.add(Counter.builder("waku.px.client.errors").tag("type", kind.label())
                    .description("peer exchange requests of this node that got no records").register(registry)));
        }
    }

    void error(PeerExchangeException.Kind kind) {
        errors.get(kind).increment();
    }
}
