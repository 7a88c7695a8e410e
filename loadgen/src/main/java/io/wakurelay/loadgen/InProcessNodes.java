package io.wakurelay.loadgen;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.PostgresConfig;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.StoreDbUrl;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.WakuNode;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.ScoreParams;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Nodes started inside the load generator's JVM, from typed configs that start at the node's DEFAULTS. */
final class InProcessNodes {
    /**
     * The archive's timestamp window (the node's --max-clock-drift): messages of a long pre-generated workload may be older than
     * the default 20 s by the time they are sent, and the archive would skip them (the relay takes any timestamp); the
     * window stays on, wide enough to cover the run.
     */
    static final Duration CLOCK_DRIFT = Duration.ofMinutes(10);
    /**
     * The relay's message cache (direct memory) of each node here: the default 64 MiB twice (macro, lat and thr run
     * two or three nodes) would take all the direct memory of a JVM started with -Xmx128m.
     */
    static final long MESSAGE_CACHE_BYTES = 16L << 20;

    private InProcessNodes() {
    }

    /** A node on 127.0.0.1 (any port) relaying {@code pubsubTopic}, archiving everything when {@code store}. */
    static WakuNode start(Path dataDir, boolean store, String pubsubTopic, List<String> staticPeers) {
        return start(dataDir, store ? RocksConfig.DEFAULTS.durability() : null, pubsubTopic, staticPeers);
    }

    /** As {@link #start(Path, boolean, String, List)}, archiving with {@code durability} (null: no archive). */
    static WakuNode start(Path dataDir, Durability durability, String pubsubTopic, List<String> staticPeers) {
        return start(dataDir, durability, "", pubsubTopic, staticPeers);
    }

    /**
     * As {@link #start(Path, Durability, String, List)}, archiving where {@code storeDbUrl} says (the node's
     * {@code --store-message-db-url}: empty for RocksDB in {@code dataDir/store}, {@code postgres://...} for PostgreSQL).
     */
    static WakuNode start(Path dataDir, Durability durability, String storeDbUrl, String pubsubTopic, List<String> staticPeers) {
        return WakuNode.start(config(dataDir, durability, storeDbUrl, pubsubTopic, staticPeers, false));
    }

    /** As {@link #start(Path, Durability, String, List)}, also listening on WebSocket ({@code /ws}) when asked. */
    static WakuNode start(Path dataDir, Durability durability, String pubsubTopic, List<String> staticPeers,
                          boolean webSocket) {
        return WakuNode.start(config(dataDir, durability, "", pubsubTopic, staticPeers, webSocket));
    }

    /** The config the {@code start} methods start a node with, for scenarios that change it. */
    static NodeConfig config(Path dataDir, Durability durability, String storeDbUrl, String pubsubTopic,
                             List<String> staticPeers, boolean webSocket) {
        boolean store = durability != null;
        NodeConfig defaults = NodeConfig.DEFAULTS;
        return defaults.inDataDir(dataDir)
                .host(defaults.host().toBuilder().listenAddress(new InetSocketAddress("127.0.0.1", 0))
                        .webSocket(defaults.host().webSocket().toBuilder().listen(webSocket).port(0).build())
                        .staticPeers(staticPeers.stream().map(Multiaddr::parse).toList()).build())
                .relay(defaults.relay().toBuilder().pubsubTopics(List.of(pubsubTopic))
                        .messageCacheBytes(MESSAGE_CACHE_BYTES).build())
                .archive(store ? archive(dataDir, durability, storeDbUrl) : null)
                .rest(null).metrics(null).build();
    }

    /**
     * The archive of a node here: nothing deleted, a timestamp window of {@link #CLOCK_DRIFT}; RocksDB in
     * {@code dataDir/store} with {@code durability}, or the PostgreSQL database {@code storeDbUrl} names.
     */
    static ArchiveConfig archive(Path dataDir, Durability durability, String storeDbUrl) {
        RocksConfig rocks = RocksConfig.defaults(dataDir.resolve("store")).toBuilder().durability(durability).build()
                .withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(CLOCK_DRIFT));
        PostgresConfig postgres = postgres(storeDbUrl);
        return postgres == null ? rocks : postgres.toBuilder().core(PostgresConfig.coreFrom(rocks.core())).build();
    }

    /**
     * {@code config} for a node with up to {@code peers} peers, all on 127.0.0.1 as every node here: no per-address
     * connection limit ({@code --ip-colocation-limit 0}) and no gossipsub IP colocation penalty (P6) below that many,
     * which would otherwise keep the sixth peer out and score the others below zero.
     */
    static NodeConfig manyOnLoopback(NodeConfig config, int peers) {
        ScoreParams s = config.relay().scoring();
        ScoreParams scoring = new ScoreParams(s.gossipThreshold(), s.publishThreshold(), s.graylistThreshold(),
                s.decayInterval(), s.decayToZero(), s.retainScore(), s.timeInMeshWeight(), s.timeInMeshQuantum(),
                s.timeInMeshCap(), s.firstMessageDeliveriesWeight(), s.firstMessageDeliveriesDecay(),
                s.firstMessageDeliveriesCap(), s.meshMessageDeliveriesWeight(), s.meshMessageDeliveriesDecay(),
                s.meshMessageDeliveriesCap(), s.meshMessageDeliveriesThreshold(), s.meshMessageDeliveriesWindow(),
                s.meshMessageDeliveriesActivation(), s.invalidMessageDeliveriesWeight(),
                s.invalidMessageDeliveriesDecay(), s.ipColocationFactorWeight(),
                Math.max(s.ipColocationFactorThreshold(), peers), s.behaviourPenaltyWeight(), s.behaviourPenaltyDecay());
        return config.toBuilder().host(config.host().toBuilder().ipColocationLimit(0).build())
                .relay(config.relay().toBuilder().scoring(scoring).build()).build();
    }

    /** The PostgreSQL database {@code storeDbUrl} names, or null for RocksDB. */
    static PostgresConfig postgres(String storeDbUrl) {
        return StoreDbUrl.parse(storeDbUrl) instanceof StoreDbUrl.Postgres pg ? pg.applyTo(PostgresConfig.builder()).build() : null;
    }

    /** {@code rocksdb} or {@code postgres}: the {@code archive} column of a result. */
    static String backend(String storeDbUrl) {
        return postgres(storeDbUrl) == null ? "rocksdb" : "postgres";
    }

    /** The multiaddr, with peer id, peers dial {@code node} at. */
    static String peerAddress(WakuNode node) {
        return node.multiaddr().toString();
    }

    /** The {@code /ws} multiaddr, with peer id, of a node started with WebSocket. */
    static String webSocketAddress(WakuNode node) {
        return node.host().listenAddresses().stream().filter(Multiaddr::isWebSocket).findFirst()
                .orElseThrow(() -> new IllegalStateException("the node does not listen on WebSocket")).toString();
    }

    /**
     * Waits until {@code from} has {@code to} in its gossipsub mesh of {@code topic}: only then does it forward the
     * messages it receives to {@code to} (its own publishes go to every peer of the topic).
     */
    static void awaitPeer(WakuNode from, WakuNode to, String topic, Duration timeout) {
        awaitMesh(from, to.peerId(), topic, timeout);
    }

    static void awaitMesh(WakuNode from, String peerId, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (from.relay().mesh().getOrDefault(topic, List.of()).stream().anyMatch(p -> p.toString().equals(peerId))) {
                return;
            }
            sleep(20);
        }
        throw new IllegalStateException("node " + from.peerId() + " did not have " + peerId + " in its mesh of " + topic
                + " within " + timeout + "; its peers: " + from.relay().peers());
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
