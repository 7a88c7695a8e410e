package io.wakurelay.services;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.List;

/** The meters a service registered, removed together when it shuts down (so a restarted service can register again). */
public final class Meters {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();

    public Meters(MeterRegistry registry) {
        this.registry = registry;
    }

    public MeterRegistry registry() {
        return registry;
    }

    public synchronized <M extends Meter> M add(M meter) {
        meters.add(meter);
        return meter;
    }

    public synchronized void removeAll() {
        meters.forEach(registry::remove);
        meters.clear();
    }
}
