package io.wakurelay.node.metrics;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.List;
import java.util.Objects;

/**
 * Where {@code /metrics} is served.
 *
 * @param address interface to bind (default 127.0.0.1)
 * @param port    TCP port (default 8008, as nwaku); 0 picks a free one
 * @param allowHosts host names accepted in the {@code Host} header besides IP literals of the bound address and
 *                   {@code localhost}: the REST API's policy and names ({@code --rest-allow-host}), so that DNS
 *                   rebinding cannot read the metrics either
 */
@RecordBuilder
public record MetricsConfig(String address, int port, List<String> allowHosts) {
    public static final MetricsConfig DEFAULTS = new MetricsConfig("127.0.0.1", 8008, List.of());

    public MetricsConfig {
        Objects.requireNonNull(address, "address");
        if (address.isBlank()) {
            throw new IllegalArgumentException("metrics address must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("metrics port must be 0..65535, was " + port);
        }
        allowHosts = List.copyOf(allowHosts);
    }

    public static MetricsConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }

    public MetricsConfigBuilder toBuilder() {
        return MetricsConfigBuilder.builder(this);
    }
}
