package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.discovery.enr.Enr;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * discv5 in the node (docs/discovery.md#discv5).
 *
 * @param enabled        {@code --discv5-discovery}: off by default, as in nwaku without a network preset
 * @param udpPort        {@code --discv5-udp-port} (nwaku's 9000), shifted by {@code --ports-shift}; written into the
 *                       node's ENR as {@code udp} while discv5 runs
 * @param bootstrap      {@code --discv5-bootstrap-node} records; DNS discovery's finds are added at run time
 * @param lookupInterval the pause between two random lookups (nwaku's search loop waits 5 s)
 */
@RecordBuilder
public record Discv5Settings(boolean enabled, int udpPort, List<Enr> bootstrap, Duration lookupInterval) {

    public static final Discv5Settings DEFAULTS = new Discv5Settings(false, 9000, List.of(), Duration.ofSeconds(5));

    public Discv5Settings {
        bootstrap = List.copyOf(bootstrap);
        Objects.requireNonNull(lookupInterval, "lookupInterval");
        if (udpPort < 0 || udpPort > 0xffff) {
            throw new IllegalArgumentException("--discv5-udp-port must be 0..65535, was " + udpPort);
        }
        if (lookupInterval.isNegative() || lookupInterval.isZero()) {
            throw new IllegalArgumentException("the discv5 lookup interval must be positive, was " + lookupInterval);
        }
    }

    public Discv5SettingsBuilder toBuilder() {
        return Discv5SettingsBuilder.builder(this);
    }
}
