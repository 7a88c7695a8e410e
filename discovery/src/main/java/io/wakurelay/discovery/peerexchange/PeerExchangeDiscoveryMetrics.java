package io.wakurelay.discovery.peerexchange;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.peers.PeerRecords;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What peer exchange found, and the record cache it serves from: nwaku's {@code waku_px_peers_received} and
 * {@code waku_px_peers_received_unknown} (gauges in nwaku, counters here: they only grow), what became of the records
 * received ({@code waku_px_records{outcome}}), and the cache's size, capacity and evictions. Registered in every node
 * (zero while no node is asked), every label value at start; {@link #close()} removes them. The request errors,
 * {@code waku_px_client_errors{type}}, are the wire client's (services).
 */
public final class PeerExchangeDiscoveryMetrics implements AutoCloseable {
    /** What became of one record received. */
    enum Fate {
        /** It does not decode or verify, or names no address we can dial. */
        INVALID("invalid"),
        /** It names another cluster. */
        OTHER_CLUSTER("other_cluster"),
        /** It is this node's own. */
        OWN("own"),
        /** Its peer could not be dialled by the peer manager (unreachable, or no connection slot free). */
        DIAL_FAILED("dial_failed"),
        /** Its peer is connected (now, or already was): the record is kept. */
        CONNECTED("connected");

        final String label;

        Fate(String label) {
            this.label = label;
        }
    }

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<Fate, Counter> fates = new EnumMap<>(Fate.class);
    final Counter received;
    final Counter receivedUnknown;

    public PeerExchangeDiscoveryMetrics(MeterRegistry registry, PeerRecords records) {
        this.registry = registry;
        for (Fate fate : Fate.values()) {
            fates.put(fate, add(Counter.builder("waku.px.records").tag("outcome", fate.label)
                    .description("records received by peer exchange, by what became of them").register(registry)));
        }
        received = add(Counter.builder("waku.px.peers.received")
                .description("records received by peer exchange").register(registry));
        receivedUnknown = add(Counter.builder("waku.px.peers.received.unknown")
                .description("records received by peer exchange of peers not in the record cache before")
                .register(registry));
        add(Gauge.builder("waku.px.cache.records", records, PeerRecords::size)
                .description("records in the cache peer exchange serves from").register(registry));
        add(Gauge.builder("waku.px.cache.capacity", records, PeerRecords::capacity)
                .description("the most records the cache holds").register(registry));
        add(FunctionCounter.builder("waku.px.cache.evictions", records, PeerRecords::evictions)
                .description("records pushed out of the full cache by other peers' records").register(registry));
    }

    private <M extends Meter> M add(M meter) {
        meters.add(meter);
        return meter;
    }

    void record(Fate fate) {
        fates.get(fate).increment();
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
