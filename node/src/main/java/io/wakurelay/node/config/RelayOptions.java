package io.wakurelay.node.config;

import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.relay.RelayConfig;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The relay's own bounds (a picocli mixin of {@link NodeOptions}): its per-peer queues, its message cache and its RPC
 * timeout; the topics and limits it relays come from {@link NetworkOptions}.
 */
public final class RelayOptions {
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

    /** The relay's config for {@code network}'s cluster, topics and limits. */
    RelayConfig relay(NetworkOptions network, ProtocolLimits limits) {
        return RelayConfig.builder()
                .clusterId(network.clusterId)
                .pubsubTopics(List.copyOf(network.topics(limits)))
                .limits(limits)
                .peerQueueMessages(peerQueueMessages)
                .peerQueueBytes(NodeOptions.option("--peer-queue-size", () -> ByteSize.parse(peerQueueSize)))
                .maxDropsBeforeDisconnect(peerMaxDrops)
                .messageCacheBytes(NodeOptions.option("--relay-message-cache-size", () -> ByteSize.parse(relayMessageCacheSize)))
                .rpcReadTimeout(NodeOptions.option("--relay-rpc-timeout", () -> DurationText.parse(relayRpcTimeout)))
                .build();
    }
}
