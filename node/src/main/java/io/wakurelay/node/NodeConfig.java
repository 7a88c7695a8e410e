package io.wakurelay.node;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.relay.RelayConfig;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything a node needs to start, each part validated by its own record.
 *
 * @param archive null when the node does not archive ({@code --store=false})
 * @param rest    null when the REST API is off
 * @param metrics null when the metrics server is off
 */
public record NodeConfig(RelayConfig relay, ArchiveConfig archive, RestConfig rest, MetricsConfig metrics, Path dataDir,
                         String logLevel) {
    public NodeConfig {
        Objects.requireNonNull(relay, "relay");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(logLevel, "logLevel");
    }
}
