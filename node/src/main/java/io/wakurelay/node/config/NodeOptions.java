package io.wakurelay.node.config;

import io.wakurelay.discovery.DiscoveryConfig;
import io.wakurelay.node.logging.LogFormat;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.p2p.crypto.NodeKey;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.services.RateLimit;
import io.wakurelay.services.store.StoreClientConfig;
import io.wakurelay.services.store.StoreServiceConfig;
import io.wakurelay.services.store.StoreServiceConfigBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The node's command line: the options of the node itself, and one picocli mixin per component (an
 * {@code XxxOptions} class whose options build that component's {@code XxxConfig} record), in the order {@code --help}
 * lists them. Flags follow nwaku's names where the concept is the same. Every option can also come from the
 * environment ({@code WAKURELAY_TCP_PORT} for {@code --tcp-port}, or nwaku's {@code WAKUNODE2_TCP_PORT}) or a TOML
 * config file ({@code tcp-port = 60000}), with nwaku's precedence ({@link ConfigSources}); see docs/configuration.md.
 */
@Command(name = "wakurelay-node", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        versionProvider = NodeVersion.class,
        description = "A Waku relay and store node (libp2p, gossipsub on /vac/waku/relay/2.0.0) with an archive in embedded RocksDB or in PostgreSQL.%n"
                + "Options also come from WAKURELAY_<OPTION> environment variables (nwaku's WAKUNODE2_<OPTION> for "
                + "nwaku's options) and --config-file (TOML); the command line wins, then the environment, then the "
                + "file.%n",
        showDefaultValues = true)
public final class NodeOptions {
    @Option(names = "--config-file", paramLabel = "FILE", description = "TOML file of options (keys are option names without --)")
    Path configFile;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "directory of the archive and the node key")
    Path dataDir;

    @Option(names = "--nodekey", paramLabel = "HEX",
            description = "secp256k1 private key of the node (64 hex digits, as nwaku takes it); default: made once and kept in the data dir")
    String nodeKey;

    @Mixin
    HostOptions host = new HostOptions();

    @Mixin
    NetworkOptions network = new NetworkOptions();

    @Mixin
    ConnectionOptions connections = new ConnectionOptions();

    @Mixin
    RelayOptions relay = new RelayOptions();

    @Mixin
    EdgeOptions edge = new EdgeOptions();

    @Mixin
    RlnOptions rln = new RlnOptions();

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    LightpushOptions lightpush = new LightpushOptions();

    @Mixin
    FilterOptions filter = new FilterOptions();

    @Mixin
    PeerExchangeOptions peerExchange = new PeerExchangeOptions();

    @Mixin
    DnsDiscoveryOptions dnsDiscovery = new DnsDiscoveryOptions();

    @Mixin
    Discv5Options discv5 = new Discv5Options();

    @Mixin
    PeerManagerOptions peerManager = new PeerManagerOptions();

    @Mixin
    RateLimitOptions rateLimits = new RateLimitOptions();

    @Mixin
    RestOptions rest = new RestOptions();

    @Mixin
    MetricsOptions metrics = new MetricsOptions();

    @Mixin
    LogOptions log = new LogOptions();

    @Spec
    CommandSpec spec;

    @Option(names = "--shutdown-grace", paramLabel = "DURATION",
            description = "how long a stop (SIGTERM) may take in all: REST, services, relay, archive and host stop in turn, "
                    + "then what has not finished is closed")
    String shutdownGrace;

    /** {@code --log-level}, read alone so that logging is set before the rest of the configuration is built. */
    public String parsedLogLevel() {
        return log.level();
    }

    /** {@code --log-format}, read alone so that the first line the node logs is already in that format. */
    public LogFormat parsedLogFormat() {
        return log.format();
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
        return toConfig(environment, warning -> { });
    }

    /**
     * As {@link #toConfig(Map)}; {@code warnings} is told what the node starts despite: a preset's discarded values,
     * options accepted and not used.
     */
    public NodeConfig toConfig(Map<String, String> environment, Consumer<String> warnings) {
        network.checkClusterId();
        NetworkPreset preset = NetworkPreset.select(network.preset, network.clusterId, warnings);
        if (preset != null) {
            preset.applyTo(this, this::given, warnings);
        }
        NodeConfigBuilder node = NodeConfig.DEFAULTS.inDataDir(dataDir)
                .logLevel(parsedLogLevel())
                .logFormat(parsedLogFormat())
                .shutdownGrace(option("--shutdown-grace", () -> DurationText.parse(shutdownGrace)))
                .autoSharding(network.autoSharding())
                .rln(rln.config(edge.relay, preset != null && preset.rlnRelay(), this::given, warnings));
        ProtocolLimits limits = network.limits();
        node.relay(option("relay options", () -> relay.relay(network, limits)));
        HostConfig hostConfig = option("peer options", () -> {
            HostConfigBuilder b = NodeConfig.DEFAULTS.host().toBuilder();
            host.applyTo(b);
            connections.applyTo(b);
            return b.build();
        });
        node.host(hostConfig).nat(option("--nat", host::nat));
        option("--data-dir", () -> writable(dataDir));
        // a key file that is there is read here, so that a broken one is a configuration error
        node.nodeKey(nodeKey != null ? option("--nodekey", () -> PrivateKey.secp256k1Hex(nodeKey))
                // read if it is there (a broken one is refused now); made by the node at start if not: parsing
                // creates nothing, so a bad option further on leaves no key behind
                : option("--data-dir", () -> NodeKey.loadIfPresent(dataDir).orElse(null)));
        node.archive(store.archive(dataDir, edge.relay, limits.maxClockDrift(), environment));
        RestConfig restConfig = rest.rest(host::shifted, network.contentTopics());
        MetricsConfig metricsConfig = metrics.metrics(host::shifted, rest.restAllowHosts);
        node.rest(restConfig).metrics(metricsConfig).store(store.limits())
                .services(services())
                .edge(edge.edge())
                .peerManager(peerManager.config(hostConfig.maxConnections()))
                .discovery(discovery());
        checkPortsDiffer(hostConfig, restConfig, metricsConfig);
        return node.build();
    }

    /**
     * Whether {@code option} was given, on the command line, in the environment or in the config file, rather than
     * left to its built-in default (false for options not parsed by picocli).
     */
    boolean given(String option) {
        if (spec == null) {
            return false;
        }
        ParseResult parsed = spec.commandLine().getParseResult();
        if (parsed != null && parsed.hasMatchedOption(option)) {
            return true;
        }
        return spec.defaultValueProvider() instanceof ConfigSources sources && sources.gives(option);
    }

    /** The command line over {@code options}, its defaults from {@code sources} (environment, file, then built-in). */
    public static CommandLine commandLine(NodeOptions options, ConfigSources sources) {
        return new CommandLine(options).setDefaultValueProvider(sources);
    }

    /** The Waku services (store, lightpush, filter, peer exchange's wire), with {@code --rate-limit}'s rates. */
    private ServicesConfig services() {
        Map<String, RateLimit> rates = rateLimits.rates();
        StoreServiceConfigBuilder storeService = StoreServiceConfig.builder();
        if (rates.containsKey("store")) {
            storeService.rateLimit(rates.get("store"));
        }
        PeerExchangeSettings px = peerExchange.settings(rates.get("px"));
        ServicesConfig services = new ServicesConfig(store.store ? storeService.build() : null,
                lightpush.lightpush(rates.get("lightpush")), filter.filter(rates.get("filter")),
                StoreClientConfig.DEFAULTS, px);
        return filter.withClient(services);
    }

    /** Discovery: the static peers' records, the peer exchange node, DNS discovery and discv5. */
    private DiscoveryConfig discovery() {
        DiscoveryConfig discovery = NodeConfig.DEFAULTS.discovery().toBuilder().staticRecords(host.staticRecords())
                .build();
        return discv5.discovery(dnsDiscovery.discovery(peerExchange.discovery(discovery)), host::shifted);
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

    /**
     * Checks, creating nothing, that the node can make its files in {@code dir}: that the directory, or the nearest of
     * its parents that exists when it does not, is a writable directory.
     */
    private static Path writable(Path dir) {
        Path existing = dir.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        boolean itself = existing != null && existing.equals(dir.toAbsolutePath().normalize());
        if (existing != null && !Files.isDirectory(existing) && !itself) {
            throw new IllegalArgumentException("cannot make " + dir + ": " + existing + " is a file, not a directory");
        }
        if (existing == null || !Files.isDirectory(existing) || Files.isWritable(existing)) {
            return dir; // the data dir itself a file is named by the node key's check
        }
        String why;
        try {
            why = Files.getFileStore(existing).isReadOnly() ? "a read-only file system" : "not writable by this user";
        } catch (IOException e) {
            why = "not writable";
        }
        throw new IllegalArgumentException("cannot write in " + existing + (itself ? "" : " to make " + dir) + ": " + why);
    }

    /** Runs a parse/validation step and names the option in its error. */
    static <T> T option(String name, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException(name + ": " + message, e);
        }
    }
}
