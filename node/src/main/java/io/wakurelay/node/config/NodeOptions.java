package io.wakurelay.node.config;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.node.NodeConfig;
import io.wakurelay.node.NodeIdentity;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.Topics;
import io.wakurelay.relay.RelayConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The node's command line. Flags follow nwaku's names where the concept is the same. Every option can also
 * come from the environment ({@code WAKURELAY_TCP_PORT} for {@code --tcp-port}) or a TOML config file
 * ({@code tcp-port = 60000}); see docs/configuration.md.
 */
@Command(name = "wakurelay-node", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        versionProvider = NodeVersion.class,
        description = "A relay node for Waku envelopes with an embedded RocksDB archive.%n"
                + "Options also come from WAKURELAY_<OPTION> environment variables and --config-file (TOML).%n",
        showDefaultValues = true)
public final class NodeOptions {
    @Option(names = "--config-file", paramLabel = "FILE", description = "TOML file of options (keys are option names without --)")
    Path configFile;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "./data", description = "directory of the archive and the node id")
    Path dataDir;

    @Option(names = "--node-id", paramLabel = "HEX", description = "node id (8-64 lower-case hex); default: made once and kept in the data dir")
    String nodeId;

    @Option(names = "--listen-address", paramLabel = "IP", defaultValue = "0.0.0.0", description = "interface for peer connections")
    String listenAddress;

    @Option(names = "--tcp-port", paramLabel = "PORT", defaultValue = "60000", description = "port for peer connections (0 = any free port)")
    int tcpPort;

    @Option(names = "--ports-shift", paramLabel = "N", defaultValue = "0", description = "added to every port (to run several nodes on one host)")
    int portsShift;

    @Option(names = "--staticnode", paramLabel = "HOST:PORT", split = ",", description = "peer to connect to and keep connected to (repeatable)")
    List<String> staticNodes = new ArrayList<>();

    @Option(names = "--pubsub-topic", paramLabel = "TOPIC", split = ",", defaultValue = Topics.DEFAULT_PUBSUB_TOPIC,
            description = "pubsub topic to relay (repeatable)")
    List<String> pubsubTopics = new ArrayList<>();

    @Option(names = "--max-msg-size", paramLabel = "SIZE", defaultValue = "150KiB", description = "largest WakuMessage accepted")
    String maxMessageSize;

    @Option(names = "--max-frame-size", paramLabel = "SIZE", defaultValue = "1MiB", description = "largest wire frame accepted")
    String maxFrameSize;

    @Option(names = "--max-clock-drift", paramLabel = "DURATION", defaultValue = "20s",
            description = "how far a message timestamp may be from this node's clock (0 = no check)")
    String maxClockDrift;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "50", description = "peer connections, inbound and outbound")
    int maxConnections;

    @Option(names = "--max-connections-per-address", paramLabel = "N", defaultValue = "0",
            description = "inbound peer connections one IP address may hold, handshaking ones included, so that one address "
                    + "cannot take every --max-connections slot (0 = no limit)")
    int maxConnectionsPerAddress;

    @Option(names = "--handshake-timeout", paramLabel = "DURATION", defaultValue = "5s", description = "time a new peer has to say Hello")
    String handshakeTimeout;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "a peer that sends nothing for this long is dropped (it is pinged at half of it)")
    String idleTimeout;

    @Option(names = "--peer-queue-messages", paramLabel = "N", defaultValue = "1024", description = "messages queued per peer before drops")
    int peerQueueMessages;

    @Option(names = "--peer-queue-size", paramLabel = "SIZE", defaultValue = "4MiB", description = "bytes queued per peer before drops")
    String peerQueueSize;

    @Option(names = "--peer-max-drops", paramLabel = "N", defaultValue = "256",
            description = "consecutive drops after which a slow peer is disconnected")
    int peerMaxDrops;

    @Option(names = "--peer-publish-rate", paramLabel = "N", defaultValue = "0",
            description = "Publish frames per second one peer connection may send; a faster peer is read more slowly (0 = unlimited)")
    long peerPublishRate;

    @Option(names = "--peer-publish-byte-rate", paramLabel = "SIZE", defaultValue = "0",
            description = "bytes of Publish frames per second one peer connection may send; a faster peer is read more slowly "
                    + "(0 = unlimited, else at least --max-msg-size)")
    String peerPublishByteRate;

    @Option(names = "--peer-control-rate", paramLabel = "N", defaultValue = "100",
            description = "Ping, Pong, Subscribe and Unsubscribe frames per second one peer connection may send before it is "
                    + "disconnected (0 = unlimited)")
    long peerControlRate;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "PEM certificate chain of this node; with --tls-key and --tls-trust, turns TLS on for every peer connection")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key of --tls-cert (unencrypted PKCS#8)")
    Path tlsKey;

    @Option(names = "--tls-trust", paramLabel = "FILE", description = "PEM CA certificates that peers' certificates must be signed by")
    Path tlsTrust;

    @Option(names = "--tls-require-client-auth", paramLabel = "BOOL", defaultValue = "true", arity = "1",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "with TLS, peers that dial this node must present a trusted certificate too (false: encrypted, not authenticated)")
    boolean tlsRequireClientAuth;

    @Option(names = "--store", paramLabel = "BOOL", defaultValue = "true", arity = "1", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "archive messages in the embedded store")
    boolean store;

    @Option(names = "--store-message-retention-policy", paramLabel = "POLICY", defaultValue = "time:172800",
            description = "none, time:<seconds>, capacity:<count> or size:<n>[KB|MB|GB]")
    String retentionPolicy;

    @Option(names = "--store-sync-writes", paramLabel = "BOOL", defaultValue = "false", arity = "1", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "sync the write-ahead log on every batch (survives power loss, slower)")
    boolean syncWrites;

    @Option(names = "--store-cache-size", paramLabel = "SIZE", defaultValue = "128MiB",
            description = "RocksDB block cache, which the memtables are charged to (at least twice the write buffer)")
    String storeCacheSize;

    @Option(names = "--store-write-buffer-size", paramLabel = "SIZE", defaultValue = "64MiB", description = "RocksDB memtable memory")
    String storeWriteBufferSize;

    @Option(names = "--rest", paramLabel = "BOOL", defaultValue = "true", arity = "1", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve the REST API")
    boolean rest;

    @Option(names = "--rest-address", paramLabel = "IP", defaultValue = "127.0.0.1", description = "interface of the REST API")
    String restAddress;

    @Option(names = "--rest-port", paramLabel = "PORT", defaultValue = "8645", description = "port of the REST API")
    int restPort;

    @Option(names = "--rest-admin", paramLabel = "BOOL", defaultValue = "false", arity = "1", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve /admin endpoints")
    boolean restAdmin;

    @Option(names = "--rest-max-body-size", paramLabel = "SIZE", defaultValue = "1MiB", description = "largest REST request body")
    String restMaxBodySize;

    @Option(names = "--rest-relay-cache-capacity", paramLabel = "N", defaultValue = "50",
            description = "messages kept per REST-subscribed topic")
    int restCacheCapacity;

    @Option(names = "--rest-max-streams", paramLabel = "N", defaultValue = "64", description = "concurrent Server-Sent Event streams")
    int restMaxStreams;

    @Option(names = "--metrics-server", paramLabel = "BOOL", defaultValue = "true", arity = "1", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve /metrics")
    boolean metricsServer;

    @Option(names = "--metrics-server-address", paramLabel = "IP", defaultValue = "127.0.0.1", description = "interface of /metrics")
    String metricsAddress;

    @Option(names = "--metrics-server-port", paramLabel = "PORT", defaultValue = "8008", description = "port of /metrics")
    int metricsPort;

    @Option(names = "--log-level", paramLabel = "LEVEL", defaultValue = "INFO", description = "TRACE, DEBUG, INFO, WARN or ERROR")
    String logLevel;

    /**
     * Builds and validates the configuration; nothing is opened yet except the data directory (for the node id).
     *
     * @throws IllegalArgumentException saying which option is wrong
     */
    public NodeConfig toConfig() {
        String level = logLevel.toUpperCase(Locale.ROOT);
        if (!List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR").contains(level)) {
            throw new IllegalArgumentException("--log-level must be TRACE, DEBUG, INFO, WARN or ERROR, was '" + logLevel + "'");
        }
        ProtocolLimits limits = limits();
        List<InetSocketAddress> peers = new ArrayList<>();
        for (String s : staticNodes) {
            peers.add(option("--staticnode", () -> HostPort.parse(s)));
        }
        for (String topic : pubsubTopics) {
            option("--pubsub-topic", () -> {
                Topics.checkPubsubTopic(topic, limits.maxTopicBytes());
                return topic;
            });
        }
        String id = nodeId != null ? option("--node-id", () -> NodeIdentity.validate(nodeId)) : NodeIdentity.loadOrCreate(dataDir);
        RelayConfig relay = option("relay options", () -> RelayConfigs.from(this, id, limits, peers));
        ArchiveConfig archive = !store ? null : option("store options", () -> {
            ArchiveConfig defaults = ArchiveConfig.defaults(dataDir.resolve("store"));
            return new ArchiveConfig(defaults.dataDir(), RetentionPolicy.parse(retentionPolicy), syncWrites,
                    defaults.maxBatchMessages(), defaults.maxBatchDelay(), defaults.maxPendingMessages(),
                    ByteSize.parse(storeCacheSize), ByteSize.parse(storeWriteBufferSize), defaults.retentionInterval());
        });
        RestConfig restConfig = !rest ? null : option("REST options", () -> {
            RestConfig d = RestConfig.defaults();
            return new RestConfig(restAddress, shifted(restPort), restAdmin, (int) Math.min(Integer.MAX_VALUE, ByteSize.parse(restMaxBodySize)),
                    restCacheCapacity, restMaxStreams, d.streamBufferMessages());
        });
        MetricsConfig metrics = !metricsServer ? null : option("metrics options", () -> new MetricsConfig(metricsAddress, shifted(metricsPort)));
        checkPortsDiffer(relay, restConfig, metrics);
        return new NodeConfig(relay, archive, restConfig, metrics, dataDir, level);
    }

    private ProtocolLimits limits() {
        long message = option("--max-msg-size", () -> ByteSize.parse(maxMessageSize));
        long frame = option("--max-frame-size", () -> ByteSize.parse(maxFrameSize));
        if (message > Integer.MAX_VALUE / 2 || frame > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--max-msg-size and --max-frame-size must be below 1 GiB");
        }
        var drift = option("--max-clock-drift", () -> DurationText.parse(maxClockDrift));
        return option("--max-msg-size/--max-frame-size", () -> new ProtocolLimits((int) frame, (int) message,
                ProtocolLimits.DEFAULT_MAX_TOPIC_BYTES, drift));
    }

    int shifted(int port) {
        if (port == 0) {
            return 0;
        }
        int p = port + portsShift;
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException("port " + port + " shifted by --ports-shift " + portsShift + " is outside 1..65535");
        }
        return p;
    }

    private static void checkPortsDiffer(RelayConfig relay, RestConfig rest, MetricsConfig metrics) {
        LinkedHashSet<Integer> seen = new LinkedHashSet<>();
        List<Integer> ports = new ArrayList<>();
        if (relay.listenAddress() != null) {
            ports.add(relay.listenAddress().getPort());
        }
        if (rest != null) {
            ports.add(rest.port());
        }
        if (metrics != null) {
            ports.add(metrics.port());
        }
        for (int p : ports) {
            if (p != 0 && !seen.add(p)) {
                throw new IllegalArgumentException("port " + p + " is used twice (peer, REST and metrics ports must differ)");
            }
        }
    }

    /** Runs a parse/validation step and names the option in its error. */
    static <T> T option(String name, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException(name + ": " + message, e);
        }
    }
}
