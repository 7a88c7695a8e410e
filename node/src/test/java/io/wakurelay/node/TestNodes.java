package io.wakurelay.node;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.node.config.NodeConfig;
import io.wakurelay.node.config.NodeConfigBuilder;
import io.wakurelay.node.metrics.MetricsConfig;
import io.wakurelay.node.rest.RestConfig;
import io.wakurelay.node.rest.RestConfigBuilder;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.HostConfigBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Typed configs of the nodes tests start in-process: on loopback, every port chosen by the system. */
final class TestNodes {
    private TestNodes() {
    }

    /** A node on 127.0.0.1 with REST on and no metrics server, its data in {@code dataDir}. */
    static NodeConfigBuilder local(Path dataDir) {
        return NodeConfig.DEFAULTS.inDataDir(dataDir).host(host("127.0.0.1").build()).rest(rest().build()).metrics(null);
    }

    /**
     * The default archive in {@code dataDir/store}, keeping a message whatever its timestamp (no timestamp window): for
     * tests that publish messages with fixed timestamps.
     */
    static ArchiveConfig archiveOfAnyTimestamp(Path dataDir) {
        return RocksConfig.defaults(dataDir.resolve("store")).withCore(c -> c.timestampWindow(Duration.ZERO));
    }

    /** The node's host on {@code ip}, any port. */
    static HostConfigBuilder host(String ip) {
        return NodeConfig.DEFAULTS.host().toBuilder().listenAddress(new InetSocketAddress(ip, 0));
    }

    /** {@link #host} that dials and keeps {@code peer} connected. */
    static HostConfig hostWithStaticPeer(Multiaddr peer) {
        return host("127.0.0.1").staticPeers(List.of(peer)).build();
    }

    static RestConfigBuilder rest() {
        return RestConfig.builder().port(0);
    }

    static MetricsConfig metrics() {
        return MetricsConfig.builder().port(0).build();
    }
}
