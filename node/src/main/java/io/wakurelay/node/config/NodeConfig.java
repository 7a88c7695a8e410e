package io.wakurelay.node.config;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.node.logging.LogFormat;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.nat.NatConfig;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.rln.RlnConfig;

import io.wakurelay.services.store.StoreLimits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything a node needs to start, each part validated by its own record; {@link #DEFAULTS} is what a node run
 * without flags gets, built from every component's own DEFAULTS.
 *
 * @param host    the libp2p host: listen address, limits, static peers
 * @param relay   gossipsub on /vac/waku/relay/2.0.0: topics, limits, peer queues
 * @param nodeKey the node's identity key (its peer id); null: the key kept in {@code dataDir}, made there the first
 *                time ({@link io.wakurelay.p2p.crypto.NodeKey})
 * @param archive null when the node does not archive ({@code --store=false}); which backend, by its record
 * @param store   the limits of Store queries (whichever protocol they come by)
 * @param services the Waku services served beside relay (store, lightpush, filter)
 * @param rest    null when the REST API is off
 * @param metrics null when the metrics server is off
 * @param dataDir the node's directory: its key and, by default, the archive (in {@code store/})
 * @param logLevel  logback's name of the root level
 * @param logFormat the format of log lines
 * @param autoSharding how content topics map to shards (by default over 1 shard, as nwaku); null without automatic
 *                     sharding
 * @param shutdownGrace how long a graceful stop may take in all: the components stop in turn, each with what is
 *                      left of it, and are then closed whether or not they finished
 * @param edge    relay on or off, and the service nodes asked instead (edge mode)
 * @param peerManager the peer manager: the split of the connections, the candidate store, dial backoff
 * @param discovery the finders (DNS discovery, discv5, the peer exchange node) and the record cache peer exchange
 *                  serves from (docs/discovery.md)
 * @param rln     RLN relay: the proofs of relayed messages validated against the membership contract's roots; null
 *                when RLN is off ({@code --rln-relay}, or The Waku Network's preset on a relaying node)
 * @param nat     the port mapping asked of the gateway ({@code --nat=any|upnp|pmp}); null when it is not asked
 *                ({@code --nat=none}, the default, or {@code extip:<IP>}, which {@link HostConfig#announceAddresses()}
 *                holds)
 */
@RecordBuilder
public record NodeConfig(HostConfig host, RelayConfig relay, PrivateKey nodeKey, ArchiveConfig archive, StoreLimits store,
                         ServicesConfig services, RestConfig rest, MetricsConfig metrics, Path dataDir, String logLevel,
                         LogFormat logFormat, AutoSharding autoSharding, Duration shutdownGrace, EdgeConfig edge,
                         PeerManagerConfig peerManager, DiscoveryConfig discovery, RlnConfig rln, NatConfig nat) {
    private static final Path DEFAULT_DATA_DIR = Path.of("data");

    /** Every component's DEFAULTS; identify names this build as its agent ({@code wakurelay/<version>}). */
    public static final NodeConfig DEFAULTS = new NodeConfig(
            HostConfig.DEFAULTS.toBuilder().agentVersion("wakurelay/" + NodeVersion.VERSION).build(), RelayConfig.DEFAULTS, null,
            RocksConfig.defaults(DEFAULT_DATA_DIR.resolve("store")), StoreLimits.DEFAULTS, ServicesConfig.DEFAULTS,
            RestConfig.DEFAULTS, MetricsConfig.DEFAULTS, DEFAULT_DATA_DIR, "INFO", LogFormat.TEXT,
            // automatic sharding over one shard, as nwaku's --num-shards-in-network defaults to 1
            new AutoSharding(RelayConfig.DEFAULTS.clusterId(), 1),
            // 20 s: inside the 30 s that docker-compose and Kubernetes wait after SIGTERM
            Duration.ofSeconds(20), EdgeConfig.DEFAULTS, PeerManagerConfig.DEFAULTS, DiscoveryConfig.DEFAULTS, null,
            null);

    public NodeConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(relay, "relay");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(peerManager, "peerManager");
        Objects.requireNonNull(discovery, "discovery");
        if (autoSharding != null && autoSharding.clusterId() != relay.clusterId()) {
            // content topics map to shards of the cluster the node relays in (a config built from DEFAULTS with only
            // the relay's cluster changed keeps the number of shards)
            autoSharding = new AutoSharding(relay.clusterId(), autoSharding.numShardsInNetwork());
        }
        if (shutdownGrace.isNegative() || shutdownGrace.isZero()) {
            throw new IllegalArgumentException("shutdownGrace must be positive, was " + shutdownGrace);
        }
    }

    public static NodeConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }

    public NodeConfigBuilder toBuilder() {
        return NodeConfigBuilder.builder(this);
    }

    /**
     * A builder of this config with the node's directory at {@code dataDir}, and the archive, if it is the embedded one,
     * in its {@code store/} subdirectory as the default puts it.
     */
    public NodeConfigBuilder inDataDir(Path dataDir) {
        ArchiveConfig moved = archive instanceof RocksConfig rocks ? rocks.toBuilder().dataDir(dataDir.resolve("store")).build()
                : archive;
        return toBuilder().dataDir(dataDir).archive(moved);
    }
}
