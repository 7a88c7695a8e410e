package io.wakurelay.node.config;

import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.Topics;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The network the node joins (nwaku's names), a picocli mixin of {@link NodeOptions}: its cluster, how content topics
 * map to shards, the shards and topics relayed, and the network's message limits.
 */
public final class NetworkOptions {
    @Option(names = "--preset", paramLabel = "NAME",
            description = "network preset, as nwaku's: twn is The Waku Network (cluster 1): automatic sharding over 8 "
                    + "shards, 150KiB messages, RLN proofs checked against its contract on chain 59141 (give "
                    + "--rln-relay-eth-client-address), discv5 with its bootstrap nodes; its values replace those of "
                    + "the options it sets, each replaced value named in a warning; --cluster-id 1 selects it too")
    String preset;

    @Option(names = "--cluster-id", paramLabel = "N",
            description = "Waku cluster; peers of another cluster are disconnected")
    int clusterId;

    @Option(names = "--num-shards-in-network", paramLabel = "N",
            description = "automatic sharding: content topics are spread over N shards of the cluster, and without --shard "
                    + "or --pubsub-topic the node relays all N (as nwaku); 0: static sharding only")
    int numShardsInNetwork;

    @Mixin
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

    /** @throws IllegalArgumentException naming {@code --cluster-id} when it is no cluster id (0..65535, as nwaku's uint16) */
    void checkClusterId() {
        if (clusterId < 0 || clusterId > 0xFFFF) {
            throw new IllegalArgumentException("--cluster-id must be in 0..65535, was " + clusterId);
        }
    }

    /** Null: static sharding only (--num-shards-in-network 0). */
    AutoSharding autoSharding() {
        return numShardsInNetwork == 0 ? null
                : NodeOptions.option("--num-shards-in-network", () -> new AutoSharding(clusterId, numShardsInNetwork));
    }

    /** The content topics of {@code --content-topic}, each once. */
    List<String> contentTopics() {
        return contentTopicOptions.contentTopics();
    }

    ProtocolLimits limits() {
        long message = NodeOptions.option("--max-msg-size", () -> ByteSize.parse(maxMessageSize));
        long rpc = NodeOptions.option("--max-rpc-size", () -> ByteSize.parse(maxRpcSize));
        if (message > Integer.MAX_VALUE / 2 || rpc > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--max-msg-size and --max-rpc-size must be below 1 GiB");
        }
        var drift = NodeOptions.option("--max-clock-drift", () -> DurationText.parse(maxClockDrift));
        return NodeOptions.option("--max-msg-size/--max-rpc-size", () -> new ProtocolLimits((int) rpc, (int) message,
                ProtocolLimits.DEFAULT_MAX_TOPIC_BYTES, ProtocolLimits.DEFAULT_MAX_CONTENT_TOPIC_BYTES, drift));
    }

    /**
     * The shards as /waku/2/rs/<cluster>/<shard> topics, then the shards of --content-topic, then the named topics. When
     * neither shards nor named topics are given: every shard of the network with automatic sharding
     * (--num-shards-in-network, as nwaku), shard 0 without.
     */
    Set<String> topics(ProtocolLimits limits) {
        Set<String> topics = new LinkedHashSet<>();
        List<Integer> none = numShardsInNetwork > 0 ? IntStream.range(0, numShardsInNetwork).boxed().toList() : List.of(0);
        List<Integer> relayed = shards.isEmpty() && pubsubTopics.isEmpty() ? none : shards;
        for (int shard : relayed) {
            if (shard < 0 || shard > 1023) {
                throw new IllegalArgumentException("--shard must be in 0..1023, was " + shard);
            }
            topics.add("/waku/2/rs/" + clusterId + "/" + shard);
        }
        topics.addAll(NodeOptions.option("--content-topic", () -> contentTopicOptions.shardTopics(autoSharding())));
        for (String topic : pubsubTopics) {
            NodeOptions.option("--pubsub-topic", () -> {
                Topics.checkPubsubTopic(topic, limits.maxTopicBytes());
                return topic;
            });
            topics.add(topic);
        }
        return topics;
    }
}
