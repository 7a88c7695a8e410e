package io.wakurelay.node;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.node.store.StoreLimits;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.relay.RelayConfig;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything a node needs to start, each part validated by its own record.
 *
 * @param host    the libp2p host: listen address, limits, static peers
 * @param nodeKey the node's identity key (its peer id)
 * @param archive null when the node does not archive ({@code --store=false})
 * @param store   the limits of Store queries (whichever protocol they come by)
 * @param services the Waku services served beside relay (store, lightpush, filter)
 * @param rest    null when the REST API is off
 * @param metrics null when the metrics server is off
 * @param logLevel  logback's name of the root level
 * @param logFormat the format of log lines
 * @param autoSharding how content topics map to shards; null without automatic sharding
 */
public record NodeConfig(HostConfig host, RelayConfig relay, PrivateKey nodeKey, ArchiveConfig archive, StoreLimits store,
                         ServicesConfig services, RestConfig rest, MetricsConfig metrics, Path dataDir, String logLevel,
                         LogFormat logFormat, AutoSharding autoSharding) {
    public NodeConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(relay, "relay");
        Objects.requireNonNull(nodeKey, "nodeKey");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(logFormat, "logFormat");
    }
}
