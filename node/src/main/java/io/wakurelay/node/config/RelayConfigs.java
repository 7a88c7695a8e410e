package io.wakurelay.node.config;

import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.RateLimits;
import io.wakurelay.relay.RelayConfig;
import io.wakurelay.relay.TlsConfig;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;

/** The relay part of the node's configuration, from its command line. */
final class RelayConfigs {
    private RelayConfigs() {
    }

    static RelayConfig from(NodeOptions o, String nodeId, ProtocolLimits limits, List<InetSocketAddress> peers) {
        InetSocketAddress listen = new InetSocketAddress(o.listenAddress, o.shifted(o.tcpPort));
        return RelayConfig.defaults(nodeId, listen)
                .withLimits(limits)
                .withStaticPeers(peers)
                .withPubsubTopics(new LinkedHashSet<>(o.pubsubTopics))
                .withMaxConnections(o.maxConnections)
                .withMaxInboundPerAddress(o.maxConnectionsPerAddress)
                .withHandshakeTimeout(NodeOptions.option("--handshake-timeout", () -> DurationText.parse(o.handshakeTimeout)))
                .withIdleTimeout(NodeOptions.option("--idle-timeout", () -> DurationText.parse(o.idleTimeout)))
                .withPeerQueue(o.peerQueueMessages, NodeOptions.option("--peer-queue-size", () -> ByteSize.parse(o.peerQueueSize)))
                .withMaxDropsBeforeDisconnect(o.peerMaxDrops)
                .withRateLimits(new RateLimits(o.peerPublishRate,
                        NodeOptions.option("--peer-publish-byte-rate", () -> ByteSize.parse(o.peerPublishByteRate)), o.peerControlRate))
                .withTls(tls(o));
    }

    /** TLS from the three file options: all or none, each a readable file, their contents checked. */
    private static TlsConfig tls(NodeOptions o) {
        if (o.tlsCert == null && o.tlsKey == null && o.tlsTrust == null) {
            return null;
        }
        if (o.tlsCert == null || o.tlsKey == null || o.tlsTrust == null) {
            throw new IllegalArgumentException("--tls-cert, --tls-key and --tls-trust go together: give all three to turn TLS on, or none");
        }
        readable("--tls-cert", o.tlsCert);
        readable("--tls-key", o.tlsKey);
        readable("--tls-trust", o.tlsTrust);
        return NodeOptions.option("TLS files", () -> new TlsConfig(o.tlsCert, o.tlsKey, o.tlsTrust, o.tlsRequireClientAuth));
    }

    private static void readable(String option, Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(option + ": " + file + " is not a readable file");
        }
    }
}
