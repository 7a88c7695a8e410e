package io.wakurelay.node.peers;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.discovery.peers.Origin;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The peer manager's meters (docs/metrics.md, "Peer manager"), every label value registered at start: nwaku's
 * {@code waku_peers_dials{outcome}}, {@code waku_node_conns_initiated{source}} and {@code waku_peer_store_size},
 * and ours for the store's bound, the targets and the pruning. Removed at shutdown.
 */
final class PeerManagerMetrics implements AutoCloseable {
    /** How a dial ended (nwaku labels a failure with its error text; a fixed set here). */
    enum Outcome {
        SUCCESSFUL("successful"), FAILED("failed"), TIMED_OUT("timed_out");

        final String label;

        Outcome(String label) {
            this.label = label;
        }
    }

    /** The kinds of peer the manager counts against a target. */
    enum Kind {
        IN_RELAY("in_relay"), OUT_RELAY("out_relay"), SERVICE("service");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<Outcome, Counter> dials = new EnumMap<>(Outcome.class);
    private final Map<Origin, Counter> initiated = new EnumMap<>(Origin.class);
    private final Map<CandidateStore.Offer, Counter> offers = new EnumMap<>(CandidateStore.Offer.class);
    private final Map<Kind, Counter> pruned = new EnumMap<>(Kind.class);
    private final Map<String, Counter> addressesRefused = new java.util.HashMap<>();
    private final AtomicReference<PeerCensus> census = new AtomicReference<>(
            new PeerCensus(0, 0, 0, 0, List.of(), List.of()));

    PeerManagerMetrics(MeterRegistry registry, CandidateStore store, PeerTargets targets) {
        this.registry = registry;
        for (Outcome o : Outcome.values()) {
            dials.put(o, keep(Counter.builder("waku.peers.dials").tag("outcome", o.label)
                    .description("dials of candidate peers by the peer manager, by outcome").register(registry)));
        }
        for (Origin o : Origin.values()) {
            initiated.put(o, keep(Counter.builder("waku.node.conns.initiated").tag("source", o.label())
                    .description("connections the peer manager made, by the discovery that found the peer")
                    .register(registry)));
        }
        for (CandidateStore.Offer o : CandidateStore.Offer.values()) {
            offers.put(o, keep(Counter.builder("waku.peer.store.offers").tag("outcome", o.name().toLowerCase())
                    .description("records offered to the peer store by discovery, by what became of them")
                    .register(registry)));
        }
        for (String reason : new String[]{AddressScope.PRIVATE.label(), AddressScope.LOOPBACK.label(),
                AddressScope.UNROUTABLE.label(), DialAddresses.UNRESOLVED}) {
            addressesRefused.put(reason, keep(Counter.builder("waku.peer.manager.addresses.refused")
                    .tag("reason", reason)
                    .description("addresses of discovered records not dialled: of a scope the dial policy refuses, "
                            + "or a name that did not resolve").register(registry)));
        }
        keep(Gauge.builder("waku.peer.store.size", store::size)
                .description("candidate peers kept by the peer manager").register(registry));
        keep(Gauge.builder("waku.peer.store.capacity", store::capacity)
                .description("the most candidate peers the peer manager keeps").register(registry));
        keep(FunctionCounter.builder("waku.peer.store.evictions", store, CandidateStore::evictions)
                .description("candidates pushed out of the full peer store by newcomers").register(registry));
        for (Kind k : Kind.values()) {
            keep(Gauge.builder("waku.peer.manager.peers", () -> count(k)).tag("kind", k.label)
                    .description("connected peers as the peer manager counts them against its targets")
                    .register(registry));
            int target = switch (k) {
                case IN_RELAY -> targets.inRelay();
                case OUT_RELAY -> targets.outRelay();
                case SERVICE -> targets.service();
            };
            keep(Gauge.builder("waku.peer.manager.target", () -> target).tag("kind", k.label)
                    .description("the peer manager's targets from --max-connections and --relay-service-ratio")
                    .register(registry));
            pruned.put(k, keep(Counter.builder("waku.peer.manager.pruned").tag("kind", k.label)
                    .description("connections the peer manager closed because their kind was over its target")
                    .register(registry)));
        }
    }

    private <M extends Meter> M keep(M meter) {
        meters.add(meter);
        return meter;
    }

    private int count(Kind k) {
        PeerCensus c = census.get();
        return switch (k) {
            case IN_RELAY -> c.inRelay();
            case OUT_RELAY -> c.outRelay();
            case SERVICE -> c.service();
        };
    }

    void census(PeerCensus c) {
        census.set(c);
    }

    void dial(Outcome outcome, Origin origin) {
        dials.get(outcome).increment();
        if (outcome == Outcome.SUCCESSFUL) {
            initiated.get(origin).increment();
        }
    }

    void offer(CandidateStore.Offer outcome) {
        offers.get(outcome).increment();
    }

    void addressRefused(String reason) {
        addressesRefused.get(reason).increment();
    }

    void pruned(Kind kind) {
        pruned.get(kind).increment();
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
