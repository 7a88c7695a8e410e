package io.wakurelay.relay;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;
import io.wakurelay.relay.validation.ValidationConfig;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link Relay} needs to know, validated when built; {@link #DEFAULTS} is the one source of every
 * default. docs/relay.md lists them with the memory they allow.
 *
 * @param pubsubTopics             topics relayed (and delivered locally) from the start
 * @param clusterId                the Waku cluster (metadata); a peer of another cluster is disconnected
 * @param limits                   RPC, message, topic and clock limits
 * @param gossip                   the gossipsub router's parameters
 * @param scoring                  peer scoring thresholds and weights
 * @param maxTopics                topics a peer may subscribe to, and this node too
 * @param peerQueueMessages        messages written to one peer and not yet taken by its connection
 * @param peerQueueBytes           bytes of those messages; gossip (IWANT answers) may use half of each bound
 * @param maxDropsBeforeDisconnect consecutive mesh messages dropped for a peer before it is disconnected as stuck
 * @param localQueueMessages       accepted envelopes handed to the local consumer (the archive) and not yet taken;
 *                                 when reached, reading from the peers that deliver more pauses
 * @param seenCacheCapacity        message ids remembered for dedup within {@code gossip.seenTtl}
 * @param messageCacheBytes        bytes of recent messages kept to answer IWANT (the oldest go first past it)
 * @param rpcReadTimeout           time an RPC from a peer may stay incomplete while this node reads; past it the
 *                                 peer's relay stream is reset and the bytes freed
 * @param peerLimits               what one peer's control messages may make this node do and hold
 * @param validation               the bounds of the asynchronous validation stage, used when a validator is installed
 */
@RecordBuilder
public record RelayConfig(List<String> pubsubTopics, int clusterId, ProtocolLimits limits, GossipParams gossip,
                          ScoreParams scoring, int maxTopics, int peerQueueMessages, long peerQueueBytes,
                          int maxDropsBeforeDisconnect, int localQueueMessages, int seenCacheCapacity,
                          long messageCacheBytes, Duration rpcReadTimeout, PeerLimits peerLimits,
                          ValidationConfig validation) {

    /** The largest RPC this node sends: nwaku reads each RPC with a 150 KiB limit. */
    public static final int MAX_OUTBOUND_RPC_BYTES = 153_600;

    public static final RelayConfig DEFAULTS = new RelayConfig(List.of(Topics.DEFAULT_PUBSUB_TOPIC), 0,
            ProtocolLimits.DEFAULTS, GossipParams.DEFAULTS, ScoreParams.DEFAULTS, 1024, 1024, 4L << 20, 256, 256,
            1_000_000, 64L << 20, Duration.ofSeconds(30), PeerLimits.DEFAULTS, ValidationConfig.DEFAULTS);

    public RelayConfig {
        pubsubTopics = List.copyOf(Objects.requireNonNull(pubsubTopics, "pubsubTopics"));
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(gossip, "gossip");
        Objects.requireNonNull(scoring, "scoring");
        if (clusterId < 0 || clusterId > 65535) {
            throw new IllegalArgumentException("cluster id must be in 0..65535, was " + clusterId);
        }
        atLeast("max topics", maxTopics, 1);
        checkTopics(pubsubTopics, limits, maxTopics);
        atLeast("peer queue messages", peerQueueMessages, 2);
        if (peerQueueBytes < 2L * MAX_OUTBOUND_RPC_BYTES || peerQueueBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("peer queue bytes must be between two of the largest RPCs ("
                    + 2 * MAX_OUTBOUND_RPC_BYTES + ") and " + Integer.MAX_VALUE + ", was " + peerQueueBytes);
        }
        atLeast("max drops before disconnect", maxDropsBeforeDisconnect, 1);
        atLeast("local queue messages", localQueueMessages, 1);
        atLeast("seen cache capacity", seenCacheCapacity, 1024);
        if (messageCacheBytes < MAX_OUTBOUND_RPC_BYTES) {
            throw new IllegalArgumentException("message cache bytes must hold at least one message ("
                    + MAX_OUTBOUND_RPC_BYTES + "), was " + messageCacheBytes);
        }
        Objects.requireNonNull(rpcReadTimeout, "rpcReadTimeout");
        if (rpcReadTimeout.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("rpc read timeout must be at least 100ms, was " + rpcReadTimeout);
        }
        checkPeerLimits(Objects.requireNonNull(peerLimits, "peerLimits"), gossip, maxTopics);
        Objects.requireNonNull(validation, "validation");
    }

    /** An honest peer (this node too) must stay below the peer limits: they are checked against what it may send. */
    private static void checkPeerLimits(PeerLimits peerLimits, GossipParams gossip, int maxTopics) {
        // joining maxTopics topics at once is maxTopics GRAFTs in one RPC; leaving them as many PRUNEs
        if (peerLimits.maxControlPerRpc() < 2L * maxTopics
                || peerLimits.maxGraftsAndPrunesPerHeartbeat() < 2L * maxTopics) {
            throw new IllegalArgumentException("max control per RPC and max GRAFTs and PRUNEs per heartbeat must be "
                    + "at least twice max topics (" + 2L * maxTopics + "), were " + peerLimits.maxControlPerRpc()
                    + " and " + peerLimits.maxGraftsAndPrunesPerHeartbeat());
        }
        if (peerLimits.maxIWantLength() < gossip.maxIHaveLength()) {
            throw new IllegalArgumentException("max IWANT length must be at least max IHAVE length ("
                    + gossip.maxIHaveLength() + "), was " + peerLimits.maxIWantLength());
        }
        if (peerLimits.maxPruneBackoff().compareTo(gossip.pruneBackoff()) < 0) {
            throw new IllegalArgumentException("max prune backoff must be at least the prune backoff ("
                    + gossip.pruneBackoff() + "), was " + peerLimits.maxPruneBackoff());
        }
    }

    /** Validates topics to subscribe to: each a valid pubsub topic, at most {@code maxTopics} of them. */
    static void checkTopics(Collection<String> topics, ProtocolLimits limits, int maxTopics) {
        if (topics.size() > maxTopics) {
            throw new IllegalArgumentException("at most " + maxTopics + " pubsub topics, got " + topics.size());
        }
        for (String topic : topics) {
            try {
                Topics.checkPubsubTopic(topic, limits.maxTopicBytes());
            } catch (ProtocolViolation e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
    }

    private static void atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
        }
    }

    public RelayConfigBuilder toBuilder() {
        return RelayConfigBuilder.builder(this);
    }

    public static RelayConfigBuilder builder() {
        return RelayConfigBuilder.builder(DEFAULTS);
    }
}
