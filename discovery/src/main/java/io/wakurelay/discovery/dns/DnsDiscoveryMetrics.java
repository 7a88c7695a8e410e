package io.wakurelay.discovery.dns;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * DNS discovery's meters, under nwaku's names ({@code waku_dnsdisc_discovered}, a gauge that only grows there, a
 * counter here; {@code waku_dnsdisc_errors{type}} with a fixed set of types), and the TXT queries made. Every label
 * value is registered at start; {@link #close()} removes them.
 */
public final class DnsDiscoveryMetrics implements AutoCloseable {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<EnrTreeException.Kind, Counter> errors = new EnumMap<>(EnrTreeException.Kind.class);
    private final Counter discovered;
    private final Counter queries;
    private final Counter syncs;

    public DnsDiscoveryMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (EnrTreeException.Kind kind : EnrTreeException.Kind.values()) {
            errors.put(kind, add(Counter.builder("waku.dnsdisc.errors").tag("type", kind.label())
                    .description("DNS discovery: entries or trees refused, and failed queries, by why")
                    .register(registry)));
        }
        discovered = add(Counter.builder("waku.dnsdisc.discovered")
                .description("DNS discovery: verified ENRs found in trees (each sync counts its finds)").register(registry));
        queries = add(Counter.builder("waku.dnsdisc.queries")
                .description("DNS discovery: TXT queries made").register(registry));
        syncs = add(Counter.builder("waku.dnsdisc.syncs")
                .description("DNS discovery: trees synced whose root verified").register(registry));
    }

    private Counter add(Counter counter) {
        meters.add(counter);
        return counter;
    }

    void error(EnrTreeException.Kind kind) {
        errors.get(kind).increment();
    }

    void discovered(int count) {
        discovered.increment(count);
    }

    void query() {
        queries.increment();
    }

    void synced() {
        syncs.increment();
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
