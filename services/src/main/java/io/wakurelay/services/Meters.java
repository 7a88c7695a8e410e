package io.wakurelay.services;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.List;

/** The meters a service registered, removed together when it shuts down (so a restarted service can register again). */
final class Meters {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    Meters(MeterRegistry registry) {
        this.registry = registry;
    }

    MeterRegistry registry() {
        return registry;
    }

    synchronized <M extends Meter> M add(M meter) {
        meters.add(meter);
        return meter;
    }

    synchronized void removeAll() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
