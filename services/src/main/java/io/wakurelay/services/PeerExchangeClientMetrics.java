package io.wakurelay.services;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.peers.PeerRecords;

import java.util.EnumMap;
import java.util.Map;

/**
 * The peer exchange client's meters: nwaku's {@code waku_px_client_errors{type}}, {@code waku_px_peers_received}
 * and {@code waku_px_peers_received_unknown} (gauges in nwaku, counters here: they only grow), what became of the
 * records received, and the record cache peer exchange serves from.
 */
final class PeerExchangeClientMetrics {
    /** What became of one record received. */
    enum Fate {
        /** It does not decode or verify, or names no address we can dial. */
        INVALID("invalid"),
        /** It names another cluster. */
        OTHER_CLUSTER("other_cluster"),
        /** It is this node's own. */
        OWN("own"),
        /** Its peer could not be dialled (unreachable, or no connection slot free). */
        DIAL_FAILED("dial_failed"),
        /** Its peer is connected (now, or already was): the record is kept. */
        CONNECTED("connected");

        final String label;

        Fate(String label) {
            this.label = label;
        }
    }

    private final Map<PeerExchangeException.Kind, Counter> errors = new EnumMap<>(PeerExchangeException.Kind.class);
    private final Map<Fate, Counter> fates = new EnumMap<>(Fate.class);
    final Counter received;
    final Counter receivedUnknown;

    PeerExchangeClientMetrics(Meters meters, PeerRecords records) {
        MeterRegistry registry = meters.registry();
        for (PeerExchangeException.Kind kind : PeerExchangeException.Kind.values()) {
            errors.put(kind, meters.add(Counter.builder("waku.px.client.errors").tag("type", kind.label())
                    .description("peer exchange requests of this node that got no records").register(registry)));
        }
        for (Fate fate : Fate.values()) {
            fates.put(fate, meters.add(Counter.builder("waku.px.records").tag("outcome", fate.label)
                    .description("records received by peer exchange, by what became of them").register(registry)));
        }
        received = meters.add(Counter.builder("waku.px.peers.received")
                .description("records received by peer exchange").register(registry));
        receivedUnknown = meters.add(Counter.builder("waku.px.peers.received.unknown")
                .description("records received by peer exchange of peers not in the record cache before")
                .register(registry));
        meters.add(Gauge.builder("waku.px.cache.records", records, PeerRecords::size)
                .description("records in the cache peer exchange serves from").register(registry));
        meters.add(Gauge.builder("waku.px.cache.capacity", records, PeerRecords::capacity)
                .description("the most records the cache holds").register(registry));
        meters.add(FunctionCounter.builder("waku.px.cache.evictions", records, PeerRecords::evictions)
                .description("records pushed out of the full cache by other peers' records").register(registry));
    }

    void error(PeerExchangeException.Kind kind) {
        errors.get(kind).increment();
    }

    void record(Fate fate) {
        fates.get(fate).increment();
    }
}
