package io.wakurelay.node.config;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.node.logging.LogFormat;
import io.wakurelay.node.logging.LogLevels;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.services.StoreLimits;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.crypto.NodeKey;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.Topics;
import io.wakurelay.relay.RelayConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The node's command line. Flags follow nwaku's names where the concept is the same. Every option can also
 * come from the environment ({@code WAKURELAY_TCP_PORT} for {@code --tcp-port}) or a TOML config file
 * ({@code tcp-port = 60000}); see docs/configuration.md.
 */
@Command(name = "wakurelay-node", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        versionProvider = NodeVersion.class,
        description = "A Waku relay and store node (libp2p, gossipsub on /vac/waku/relay/2.0.0) with an archive in embedded RocksDB or in PostgreSQL.%n"
                + "Options also come from WAKURELAY_<OPTION> environment variables and --config-file (TOML).%n",
        showDefaultValues = true)
public final class NodeOptions {
    @Option(names = "--config-file", paramLabel = "FILE", description = "TOML file of options (keys are option names without --)")
    Path configFile;

    /** The process's environment, for the secrets that are no options; set by {@link #toConfig(Map)}. */
    Map<String, String> environment = Map.of();

    @Option(names = "--data-dir", paramLabel = "DIR", description = "directory of the archive and the node key")
    Path dataDir;

    @Option(names = "--nodekey", paramLabel = "HEX",
            description = "secp256k1 private key of the node (64 hex digits, as nwaku takes it); default: made once and kept in the data dir")
    String nodeKey;

    @Option(names = "--listen-address", paramLabel = "IP", description = "interface for peer connections")
    String listenAddress;

    @Option(names = "--tcp-port", paramLabel = "PORT", description = "port for peer connections (0 = any free port)")
    int tcpPort;

    @Option(names = "--ports-shift", paramLabel = "N", description = "added to every port (to run several nodes on one host)")
    int portsShift;

    @Option(names = "--ext-multiaddr", paramLabel = "MULTIADDR", split = ",",
            description = "address peers should dial, announced by identify instead of the bound address of its transport "
                    + "(TCP, or WebSocket for one with /ws or /wss) (repeatable)")
    List<String> extMultiaddrs = new ArrayList<>();

    @Option(names = "--ext-multiaddr-only", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "announce only the --ext-multiaddr addresses (nwaku's flag): no bound address, no --dns4-domain-name one")
    boolean extMultiaddrOnly;

    @Option(names = "--dns4-domain-name", paramLabel = "NAME",
            description = "DNS name of this node's public IPv4 address: identify announces /dns4/NAME/tcp/<port> (and "
                    + "/dns4/NAME/tcp/<websocket port>/ws or /wss) instead of the bound addresses; a browser needs it "
                    + "for wss")
    String dns4DomainName;

    @Option(names = "--websocket-support", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "accept libp2p over WebSocket (/ws) on --websocket-port, as browsers (js-waku) dial")
    boolean websocketSupport;

    @Option(names = "--websocket-port", paramLabel = "PORT",
            description = "port of the WebSocket listener (0 = any free port)")
    int websocketPort;

    @Option(names = "--websocket-secure-support", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "WebSocket in TLS (/wss) on --websocket-port, with the two files below (turns WebSocket on)")
    boolean websocketSecureSupport;

    @Option(names = "--websocket-secure-key-path", paramLabel = "FILE",
            description = "PEM private key of the wss certificate (PKCS#8, PKCS#1 RSA or SEC1 EC; e.g. certbot's "
                    + "privkey.pem)")
    Path websocketSecureKeyPath;

    @Option(names = "--websocket-secure-cert-path", paramLabel = "FILE",
            description = "PEM certificate chain of wss, leaf first (e.g. certbot's fullchain.pem)")
    Path websocketSecureCertPath;

    @Option(names = "--staticnode", paramLabel = "MULTIADDR", split = ",",
            description = "peer to connect to and keep connected to, "
                    + "/ip4|/ip6|/dns4|/dns6/.../tcp/N[/ws|/wss]/p2p/<peer id>, or its ENR enr:… (dialled at its first "
                    + "TCP or WebSocket address, and served by peer exchange) (repeatable)")
    List<String> staticNodes = new ArrayList<>();

    @Option(names = "--cluster-id", paramLabel = "N",
            description = "Waku cluster; peers of another cluster are disconnected")
    int clusterId;

    @Option(names = "--num-shards-in-network", paramLabel = "N",
            description = "automatic sharding: content topics are spread over N shards of the cluster, and without --shard "
                    + "or --pubsub-topic the node relays all N (as nwaku); 0: static sharding only")
    int numShardsInNetwork;

    @CommandLine.Mixin
    ContentTopicOptions contentTopicOptions = new ContentTopicOptions();

    @Option(names = "--shard", paramLabel = "N", split = ",",
            description = "shard to relay, /waku/2/rs/<cluster-id>/<N> (repeatable); default: shard 0 unless --pubsub-topic is given")
    List<Integer> shards = new ArrayList<>();

    @Option(names = "--pubsub-topic", paramLabel = "TOPIC", split = ",",
            description = "named pubsub topic to relay besides the shards (repeatable)")
    List<String> pubsubTopics = new ArrayList<>();

    @Option(names = "--max-msg-size", paramLabel = "SIZE", description = "largest WakuMessage accepted")
    String maxMessageSize;

    @Option(names = "--max-rpc-size", paramLabel = "SIZE", description = "largest relay RPC accepted from a peer")
    String maxRpcSize;

    @Option(names = "--max-clock-drift", paramLabel = "DURATION",
            description = "the archive skips a message whose timestamp is further than this from its receive time, as "
                    + "nwaku's archive (relay takes any timestamp; 0 = archive whatever the timestamp)")
    String maxClockDrift;

    @Option(names = "--max-connections", paramLabel = "N", description = "peer connections, inbound and outbound")
    int maxConnections;

    @Option(names = "--reserved-outbound-slots", paramLabel = "N",
            description = "of --max-connections, slots inbound connections may not take (at least one per static node is kept)")
    int reservedOutboundSlots;

    @Option(names = "--ip-colocation-limit", paramLabel = "N",
            description = "inbound peer connections one IP address may hold, handshaking ones included, so that one address "
                    + "cannot take every --max-connections slot (0 = no limit)")
    int ipColocationLimit;

    @Option(names = "--aead-provider", paramLabel = "PROVIDER",
            description = "the ChaCha20-Poly1305 of peer connections: conscrypt (native), jdk, or auto (conscrypt "
                    + "where it loads, else jdk; docs/adr/0070)")
    String aeadProvider;

    @Option(names = "--handshake-timeout", paramLabel = "DURATION",
            description = "time a new connection has for its security and muxer negotiation")
    String handshakeTimeout;

    @Option(names = "--ping-interval", paramLabel = "DURATION",
            description = "how often each connection is pinged; an answer missing for 10 s closes it")
    String pingInterval;

    @Option(names = "--peer-queue-messages", paramLabel = "N", description = "messages queued per relay peer before drops")
    int peerQueueMessages;

    @Option(names = "--peer-queue-size", paramLabel = "SIZE", description = "bytes queued per relay peer before drops")
    String peerQueueSize;

    @Option(names = "--peer-max-drops", paramLabel = "N",
            description = "mesh messages dropped in a row after which a stuck peer is disconnected")
    int peerMaxDrops;

    @Option(names = "--relay-message-cache-size", paramLabel = "SIZE",
            description = "direct memory of recent messages kept to answer gossip (IWANT); past it the oldest go early")
    String relayMessageCacheSize;

    @Option(names = "--relay-rpc-timeout", paramLabel = "DURATION",
            description = "time an RPC from a peer may stay incomplete on its relay stream; past it the stream is reset")
    String relayRpcTimeout;

    @Option(names = "--relay", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "relay messages (nwaku's flag); false: an edge node that mounts no relay, archives nothing and "
                    + "serves no lightpush or filter, and asks --storenode and --lightpushnode instead")
    boolean relay;

    @Mixin
    EdgeOptions edgeOptions = new EdgeOptions();

    @Option(names = "--store", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "archive messages (in RocksDB or PostgreSQL, as --store-message-db-url says)")
    boolean store;

    @Option(names = "--store-message-db-url", paramLabel = "URL",
            description = "where the archive is (nwaku's flag): empty or rocksdb://<dir> for the embedded RocksDB store "
                    + "(empty: <data-dir>/store), postgres://user:password@host:port/database for PostgreSQL with nwaku's "
                    + "schema, which a fleet of store nodes may share (docs/archive.md); the password may instead come from "
                    + "--store-message-db-password-file or WAKURELAY_STORE_MESSAGE_DB_PASSWORD; sqlite:// is not supported")
    String storeMessageDbUrl;

    @Option(names = "--store-message-db-password-file", paramLabel = "FILE",
            description = "file whose first line is the PostgreSQL password, when the URL has none (it is never logged)")
    Path storeMessageDbPasswordFile;

    @Option(names = "--store-max-num-db-connections", paramLabel = "N",
            description = "PostgreSQL: connections of the node's pool (nwaku's flag): one writer, one for housekeeping, the "
                    + "rest for Store queries (an open page holds one; keep it above --store-max-queries)")
    int storeMaxNumDbConnections;

    @Option(names = "--store-message-db-statement-timeout", paramLabel = "DURATION",
            description = "PostgreSQL: the longest one statement may run (the server's statement_timeout); a write that "
                    + "times out is retried, a query answers 500")
    String storeMessageDbStatementTimeout;

    @Option(names = "--store-message-db-connect-timeout", paramLabel = "DURATION",
            description = "PostgreSQL: how long a write or a query waits for a connection from the pool, and a new "
                    + "connection for the server")
    String storeMessageDbConnectTimeout;

    @Option(names = "--store-message-db-start-wait", paramLabel = "DURATION",
            description = "PostgreSQL: how long the node retries a database that is down at start before it exits "
                    + "(0: exit at once)")
    String storeMessageDbStartWait;

    @Option(names = "--store-message-retention-policy", paramLabel = "POLICY",
            description = "none, time:<seconds>, capacity:<count> or size:<n>[KB|MB|GB]")
    String retentionPolicy;

    @Option(names = "--store-durability", paramLabel = "MODE",
            description = "when a written batch counts as stored: wal (in the write-ahead log: survives kill -9), wal-sync "
                    + "(the log fsynced at every batch: survives power loss, slower) or flush (no log; once a flush wrote "
                    + "it to disk: survives power loss, writes each message once, acknowledged up to "
                    + "--store-flush-interval later; see docs/adr/0016)")
    String storeDurability;

    @Option(names = "--store-flush-interval", paramLabel = "DURATION",
            description = "with --store-durability flush: the longest a written batch waits before the flush that "
                    + "acknowledges it is started")
    String storeFlushInterval;

    @Option(names = "--store-cache-size", paramLabel = "SIZE",
            description = "RocksDB block cache, which the memtables are charged to (at least twice the write buffer)")
    String storeCacheSize;

    @Option(names = "--store-write-buffer-size", paramLabel = "SIZE",
            description = "RocksDB memtable memory: above it the largest memtable is flushed; while flushes lag, at "
                    + "most about 2.25 times it")
    String storeWriteBufferSize;

    @Option(names = "--store-write-rate-limit", paramLabel = "SIZE",
            description = "bytes per second RocksDB may write to disk in flushes and compactions, to leave the disk to "
                    + "others (0: no limit); when flushes fall behind, writes stall and the archive slows its peers")
    String storeWriteRateLimit;

    @Option(names = "--store-direct-io", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "RocksDB's flushes and compactions write with direct I/O where the data directory's file "
                    + "system takes it (false: through the page cache; docs/adr/0077)")
    boolean storeDirectIo;

    @Option(names = "--store-max-queries", paramLabel = "N",
            description = "Store queries answered at once; more are refused (429; REST adds Retry-After)")
    int storeMaxQueries;

    @Option(names = "--store-max-page-bytes", paramLabel = "SIZE",
            description = "bytes of one Store page with data, over REST and Store v3 alike (at least 256KiB); a page "
                    + "that would pass it ends early with a cursor (REST: its first message is always in; Store v3: the "
                    + "encoded response stays within it, and js-waku reads at most 4MiB)")
    String storeMaxPageBytes;

    @Option(names = "--lightpush", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "serve lightpush v3 (/vac/waku/lightpush/3.0.0): light clients publish through this node")
    boolean lightpush;

    @Option(names = "--filter", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "serve filter v2 (/vac/waku/filter-subscribe/2.0.0-beta1): light clients subscribe to messages")
    boolean filter;

    @Option(names = "--filter-subscription-timeout", paramLabel = "SECONDS",
            description = "a filter subscription not refreshed for this long expires")
    long filterSubscriptionTimeout;

    @Option(names = "--filter-max-peers-to-serve", paramLabel = "N",
            description = "filter subscribers at once; a new one past it is answered 503")
    int filterMaxPeersToServe;

    @Option(names = "--filter-max-criteria", paramLabel = "N",
            description = "(pubsub topic, content topic) pairs one filter subscriber may hold")
    int filterMaxCriteria;

    @CommandLine.Mixin
    FilterClientOptions filterClientOptions = new FilterClientOptions();

    @Option(names = "--peer-exchange", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "serve peer exchange (/vac/waku/peer-exchange/2.0.0-alpha1): answer with the ENRs of connected "
                    + "peers whose ENR this node knows (from --staticnode enr:… and from --peer-exchange-node)")
    boolean peerExchange;

    @Option(names = "--peer-exchange-node", paramLabel = "MULTIADDR",
            description = "node to ask for peers by peer exchange, at start and every minute; the peers found are "
                    + "dialled (within --max-connections) and their ENRs served in turn")
    String peerExchangeNode;

    @Option(names = "--dns-discovery", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "accepted as in nwaku, which deprecates it: DNS discovery (EIP-1459) is on whenever "
                    + "--dns-discovery-url is given, and off without one whatever this flag says")
    boolean dnsDiscovery;

    @Option(names = "--dns-discovery-url", paramLabel = "URL", split = ",",
            description = "tree of peers to read at start, again 30 s later while it names none, else every 30 min "
                    + "(enrtree://<base32 key>@<domain>; repeatable); its peers are dialled (within --max-connections) "
                    + "and their ENRs served by peer exchange")
    List<String> dnsDiscoveryUrls = new ArrayList<>();

    @Option(names = "--dns-discovery-name-server", paramLabel = "IP[:PORT]", split = ",",
            description = "name server DNS discovery asks, the next one only when one fails (repeatable; default "
                    + "1.1.1.1 and 1.0.0.1, as nwaku's --dns-addrs-name-server)")
    List<String> dnsDiscoveryNameServers = new ArrayList<>();

    @CommandLine.Mixin
    Discv5Options discv5 = new Discv5Options();

    @CommandLine.Mixin
    PeerManagerOptions peerManagerOptions = new PeerManagerOptions();

    @Option(names = "--rate-limit", paramLabel = "PROTOCOL:RATE", split = ",",
            description = "per-peer request rate of store, lightpush, filter or px (peer exchange) (nwaku's form, e.g. "
                    + "store:30/1s, lightpush:none; without PROTOCOL: all four); defaults: store 30/1s, lightpush 30/1s, "
                    + "filter 30/1m, px 30/1m")
    List<String> rateLimits = new ArrayList<>();

    @Option(names = "--rest", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve the REST API")
    boolean rest;

    @Option(names = "--rest-address", paramLabel = "IP", description = "interface of the REST API")
    String restAddress;

    @Option(names = "--rest-port", paramLabel = "PORT", description = "port of the REST API")
    int restPort;

    @Option(names = "--rest-admin", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve /admin endpoints")
    boolean restAdmin;

    @Option(names = "--rest-max-body-size", paramLabel = "SIZE", description = "largest REST request body")
    String restMaxBodySize;

    @Option(names = "--rest-relay-cache-capacity", paramLabel = "N",
            description = "messages kept per cached topic (the topics the node starts with, and those subscribed over REST)")
    int restCacheCapacity;

    @Option(names = "--rest-relay-cache-size", paramLabel = "SIZE",
            description = "bytes the REST relay caches of all topics hold alive together")
    String restCacheSize;

    @Option(names = "--rest-max-streams", paramLabel = "N", description = "concurrent Server-Sent Event streams")
    int restMaxStreams;

    @Option(names = "--rest-stream-buffer-size", paramLabel = "SIZE",
            description = "bytes of events one Server-Sent Event stream holds for a slow reader before dropping (an empty stream "
                    + "takes one event whatever its size)")
    String restStreamBufferSize;

    @Option(names = "--rest-streams-memory", paramLabel = "SIZE",
            description = "bytes of events all Server-Sent Event streams together hold for slow readers before dropping")
    String restStreamsMemory;

    @Option(names = "--rest-allow-origin", paramLabel = "ORIGIN", split = ",",
            description = "browser origin allowed to call the REST API, as nwaku: * and ? are wildcards, e.g. \"localhost:*\" "
                    + "or \"https://app.example\" (repeatable); requests from any other origin are refused")
    List<String> restAllowOrigins = new ArrayList<>();

    @Option(names = "--rest-allow-host", paramLabel = "NAME", split = ",",
            description = "host name accepted in the Host header of REST and /metrics requests besides the bound IP address "
                    + "and localhost (repeatable; * accepts any); other names are refused, which defeats DNS rebinding")
    List<String> restAllowHosts = new ArrayList<>();

    @Option(names = "--metrics-server", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve /metrics")
    boolean metricsServer;

    @Option(names = "--metrics-server-address", paramLabel = "IP", description = "interface of /metrics")
    String metricsAddress;

    @Option(names = "--metrics-server-port", paramLabel = "PORT", description = "port of /metrics")
    int metricsPort;

    @Option(names = "--log-level", paramLabel = "LEVEL",
            description = "TRACE, DEBUG, INFO, WARN or ERROR (nwaku's NOTICE is INFO, FATAL is ERROR)")
    String logLevel;

    @Option(names = "--log-format", paramLabel = "FORMAT",
            description = "TEXT (one line per event) or JSON (one JSON object per line)")
    String logFormat;

    @Option(names = "--shutdown-grace", paramLabel = "DURATION",
            description = "how long a stop (SIGTERM) may take in all: REST, services, relay, archive and host stop in turn, "
                    + "then what has not finished is closed")
    String shutdownGrace;

    /** {@code --log-level}, read alone so that logging is set before the rest of the configuration is built. */
    public String parsedLogLevel() {
        return option("--log-level", () -> LogLevels.parse(logLevel));
    }

    /** {@code --log-format}, read alone so that the first line the node logs is already in that format. */
    public LogFormat parsedLogFormat() {
        return option("--log-format", () -> LogFormat.parse(logFormat));
    }

    /** Null: static sharding only (--num-shards-in-network 0). */
    AutoSharding autoSharding() {
        return numShardsInNetwork == 0 ? null
                : option("--num-shards-in-network", () -> new AutoSharding(clusterId, numShardsInNetwork));
    }

    /**
     * Builds and validates the configuration. Creates nothing: a node key file that exists is read, one that does not
     * is made by the node when it starts.
     *
     * @throws IllegalArgumentException saying which option is wrong
     */
    public NodeConfig toConfig() {
        return toConfig(Map.of());
    }

    /**
     * As {@link #toConfig()}, with the process's environment, where a secret that is no option may be
     * ({@code WAKURELAY_STORE_MESSAGE_DB_PASSWORD}).
     */
    public NodeConfig toConfig(Map<String, String> environment) {
        this.environment = environment;
        NodeConfig defaults = NodeConfig.DEFAULTS;
        NodeConfigBuilder node = defaults.inDataDir(dataDir)
                .logLevel(parsedLogLevel())
                .logFormat(parsedLogFormat())
                .shutdownGrace(option("--shutdown-grace", () -> DurationText.parse(shutdownGrace)))
                .autoSharding(autoSharding());
        ProtocolLimits limits = limits();
        node.relay(option("relay options", () -> RelayConfigs.relay(this, limits)));
        HostConfig host = option("peer options", () -> RelayConfigs.host(this));
        node.host(host);
        // a key file that is there is read here, so that a broken one is a configuration error
        node.nodeKey(nodeKey != null ? option("--nodekey", () -> PrivateKey.secp256k1Hex(nodeKey))
                // read if it is there (a broken one is refused now); made by the node at start if not: parsing
                // creates nothing, so a bad option further on leaves no key behind
                : option("--data-dir", () -> NodeKey.loadIfPresent(dataDir).orElse(null)));
        ArchiveConfig embedded = !store ? null : option("store options", () -> defaults.archive().toBuilder()
                .dataDir(dataDir.resolve("store"))
                .postgres(null)
                .retention(RetentionPolicy.parse(retentionPolicy))
                .durability(Durability.parse(storeDurability))
                .flushInterval(DurationText.parse(storeFlushInterval))
                .blockCacheBytes(ByteSize.parse(storeCacheSize))
                .writeBufferBytes(ByteSize.parse(storeWriteBufferSize))
                .writeRateBytes(ByteSize.parse(storeWriteRateLimit))
                .directIo(storeDirectIo)
                .build());
        // without relay nothing reaches the archive: an edge node asks --storenode (nwaku's edge nodes run without store)
        node.archive(embedded == null || !relay ? null : option("--store-message-db-url", () -> StoreLocation.apply(this, embedded)));
        RestConfig restConfig = !rest ? null : option("REST options", () -> defaults.rest().toBuilder()
                .address(restAddress).port(shifted(restPort)).admin(restAdmin)
                .maxBodyBytes((int) Math.min(Integer.MAX_VALUE, ByteSize.parse(restMaxBodySize)))
                .cacheCapacity(restCacheCapacity).cacheBytes(ByteSize.parse(restCacheSize)).maxStreams(restMaxStreams)
                .streamBufferBytes(ByteSize.parse(restStreamBufferSize)).streamsMemoryBytes(ByteSize.parse(restStreamsMemory))
                .allowOrigins(restAllowOrigins).allowHosts(restAllowHosts)
                .contentTopics(contentTopicOptions.contentTopics()).build());
        MetricsConfig metrics = !metricsServer ? null : option("metrics options", () -> defaults.metrics().toBuilder()
                .address(metricsAddress).port(shifted(metricsPort)).allowHosts(restAllowHosts).build());
        StoreLimits storeLimits = option("--store-max-queries/--store-max-page-bytes",
                () -> new StoreLimits(storeMaxQueries, ByteSize.parse(storeMaxPageBytes)));
        node.rest(restConfig).metrics(metrics).store(storeLimits)
                .services(filterClientOptions.apply(option("--rate-limit/--filter-*", () -> ServiceOptions.services(this))))
                .edge(edgeOptions.edge(relay))
                .peerManager(peerManagerOptions.config(host.maxConnections()));
        checkPortsDiffer(host, restConfig, metrics);
        return node.build();
    }

    /** The command line over {@code options}, its defaults from {@code sources} (environment, file, then built-in). */
    public static CommandLine commandLine(NodeOptions options, ConfigSources sources) {
        return new CommandLine(options).setDefaultValueProvider(sources);
    }

    private ProtocolLimits limits() {
        long message = option("--max-msg-size", () -> ByteSize.parse(maxMessageSize));
        long rpc = option("--max-rpc-size", () -> ByteSize.parse(maxRpcSize));
        if (message > Integer.MAX_VALUE / 2 || rpc > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--max-msg-size and --max-rpc-size must be below 1 GiB");
        }
        var drift = option("--max-clock-drift", () -> DurationText.parse(maxClockDrift));
        return option("--max-msg-size/--max-rpc-size", () -> new ProtocolLimits((int) rpc, (int) message,
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

    private static void checkPortsDiffer(HostConfig host, RestConfig rest, MetricsConfig metrics) {
        LinkedHashSet<Integer> seen = new LinkedHashSet<>();
        List<Integer> ports = new ArrayList<>();
        if (host.listenAddress() != null) {
            ports.add(host.listenAddress().getPort());
        }
        if (host.webSocket().listen()) {
            ports.add(host.webSocket().port());
        }
        if (rest != null) {
            ports.add(rest.port());
        }
        if (metrics != null) {
            ports.add(metrics.port());
        }
        for (int p : ports) {
            if (p != 0 && !seen.add(p)) {
                throw new IllegalArgumentException("port " + p
                        + " is used twice (peer, WebSocket, REST and metrics ports must differ)");
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
