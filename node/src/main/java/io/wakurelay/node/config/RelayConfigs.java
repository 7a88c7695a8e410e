package io.wakurelay.node.config;

import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.RelayConfig;

import java.net.InetSocketAddress;
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
                .withHandshakeTimeout(NodeOptions.option("--handshake-timeout", () -> DurationText.parse(o.handshakeTimeout)))
                .withIdleTimeout(NodeOptions.option("--idle-timeout", () -> DurationText.parse(o.idleTimeout)))
                .withPeerQueue(o.peerQueueMessages, NodeOptions.option("--peer-queue-size", () -> ByteSize.parse(o.peerQueueSize)))
                .withMaxDropsBeforeDisconnect(o.peerMaxDrops);
    }
}
