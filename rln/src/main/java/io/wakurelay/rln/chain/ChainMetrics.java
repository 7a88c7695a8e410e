package io.wakurelay.rln.chain;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;

/**
 * The membership roots' meters (docs/metrics.md, "RLN"): nwaku's {@code waku_rln_number_registered_memberships}, and
 * ours: failed JSON-RPC calls by why, reads of {@code root()} by what asked for them, the window's size and the age of
 * the last good read. Every label value is registered at start; {@link #close()} removes them.
 */
final class ChainMetrics implements AutoCloseable {

    /** What asked for a read of the roots. */
    enum Trigger {
        /** The read at start. */
        START,
        /** The read every poll interval. */
        POLL,
        /** A message named a root not in the window. */
        UNKNOWN_ROOT;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Map<RpcFailure, Counter> errors = new EnumMap<>(RpcFailure.class);
    private final Map<Trigger, Counter> reads = new EnumMap<>(Trigger.class);
    private final AtomicLong memberships = new AtomicLong();

    ChainMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (RpcFailure failure : RpcFailure.values()) {
            errors.put(failure, add(Counter.builder("waku.rln.rpc.errors").tag("reason", failure.label())
                    .description("RLN: JSON-RPC calls to the eth clients that failed, by why").register(registry)));
        }
        for (Trigger trigger : Trigger.values()) {
            reads.put(trigger, add(Counter.builder("waku.rln.root.reads").tag("trigger", trigger.label())
                    .description("RLN: reads of the membership contract's root(), by what asked for them")
                    .register(registry)));
        }
        add(Gauge.builder("waku.rln.number.registered.memberships", memberships, AtomicLong::get)
                .description("number of registered and active rln memberships").register(registry));
    }

    /**
     * The gauges read from the window and the reader, registered once both exist (still at start). Micrometer holds a
     * gauge's object weakly: these suppliers are made for the gauges alone, so the gauges hold them strongly (else
     * they read NaN after the first garbage collection).
     */
    void gauges(IntSupplier windowSize, DoubleSupplier readAgeSeconds) {
        add(Gauge.builder("waku.rln.root.window.size", windowSize, s -> s.getAsInt()).strongReference(true)
                .description("RLN: membership roots a proof may name now").register(registry));
        add(Gauge.builder("waku.rln.root.read.age", readAgeSeconds, DoubleSupplier::getAsDouble).strongReference(true)
                .baseUnit("seconds")
                .description("RLN: time since the last good read of the roots (since the start when none was good)")
                .register(registry));
    }

    private <M extends Meter> M add(M meter) {
        meters.add(meter);
        return meter;
    }

    void error(RpcFailure failure) {
        errors.get(failure).increment();
    }

    void read(Trigger trigger) {
        reads.get(trigger).increment();
    }

    void memberships(long count) {
        memberships.set(count);
    }

    @Override
    public void close() {
        meters.forEach(registry::remove);
    }
}
