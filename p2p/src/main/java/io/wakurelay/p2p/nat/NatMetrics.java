package io.wakurelay.p2p.nat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The port mapping's meters (docs/metrics.md, "p2p"), every label value registered at construction so that a node
 * without a mapping shows {@code state="off"} and zeros, not no data.
 */
public final class NatMetrics {
    /** What a failure was doing. */
    public enum Operation {
        /** finding a gateway (SSDP, the device description, the default route) */
        DISCOVER,
        /** asking the gateway's external address */
        EXTERNAL_ADDRESS,
        /** a first mapping */
        MAP,
        /** a mapping asked for again */
        RENEW,
        /** a mapping deleted at shutdown */
        UNMAP;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final AtomicReference<NatState> state = new AtomicReference<>(NatState.OFF);
    private final AtomicReference<String> protocol = new AtomicReference<>("");
    private final Map<NatPort.Protocol, AtomicInteger> mapped = new EnumMap<>(NatPort.Protocol.class);
    private final Map<Operation, Counter> failures = new EnumMap<>(Operation.class);
    private final Counter renewals;

    public NatMetrics(MeterRegistry registry) {
        for (NatState s : NatState.values()) {
            Gauge.builder("libp2p_nat_state", state, r -> r.get() == s ? 1 : 0).tag("state", s.label())
                    .description("1 for where the port mapping at the gateway stands (--nat), 0 for the others")
                    .register(registry);
        }
        for (String p : new String[] {"upnp", "pmp"}) {
            Gauge.builder("libp2p_nat_gateway", protocol, r -> r.get().equals(p) ? 1 : 0).tag("protocol", p)
                    .description("1 for the protocol the gateway that maps the ports speaks").register(registry);
        }
        for (NatPort.Protocol p : NatPort.Protocol.values()) {
            AtomicInteger n = new AtomicInteger();
            mapped.put(p, n);
            Gauge.builder("libp2p_nat_mapped_ports", n, AtomicInteger::get).tag("protocol", p.label())
                    .description("ports the gateway forwards to this node now").register(registry);
        }
        for (Operation o : Operation.values()) {
            failures.put(o, Counter.builder("libp2p_nat_failures").tag("operation", o.label())
                    .description("exchanges with the gateway that failed, by what they were doing").register(registry));
        }
        renewals = Counter.builder("libp2p_nat_renewals").description("mappings asked for again (every 20 minutes)")
                .register(registry);
    }

    void state(NatState s) {
        state.set(s);
    }

    NatState state() {
        return state.get();
    }

    void gateway(String p) {
        protocol.set(p);
    }

    void mapped(NatPort.Protocol p, int count) {
        mapped.get(p).set(count);
    }

    void failed(Operation o) {
        failures.get(o).increment();
    }

    void renewed() {
        renewals.increment();
    }
}
