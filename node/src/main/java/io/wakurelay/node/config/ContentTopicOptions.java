package io.wakurelay.node.config;

import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.ProtocolViolation;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * nwaku's {@code --content-topic}: content topics the node wants from the start. With automatic sharding their shards
 * are relayed (besides --shard), and REST caches their messages for {@code GET /relay/v1/auto/messages/{contentTopic}}
 * without a POST subscription, as nwaku's REST does ({@code waku/rest_api/endpoint/builder.nim}).
 */
public final class ContentTopicOptions {
    @Option(names = "--content-topic", paramLabel = "TOPIC",
            description = "content topic to relay and cache for REST from the start (repeatable); its shard, derived with "
                    + "automatic sharding (--num-shards-in-network), is relayed besides --shard")
    List<String> contentTopics = new ArrayList<>();

    /** The content topics given, each once, in their order. */
    List<String> contentTopics() {
        return List.copyOf(new LinkedHashSet<>(contentTopics));
    }

    /**
     * The pubsub topics of the content topics' shards.
     *
     * @param sharding null when automatic sharding is off
     * @throws IllegalArgumentException for a content topic that has no shard, or for any without automatic sharding
     */
    Set<String> shardTopics(AutoSharding sharding) {
        Set<String> topics = new LinkedHashSet<>();
        if (contentTopics.isEmpty()) {
            return topics;
        }
        if (sharding == null) {
            // nwaku ignores them then; a flag that silently does nothing misleads, so it is refused
            throw new IllegalArgumentException("it needs automatic sharding (--num-shards-in-network 1 or more, "
                    + "not 0) to derive its shard");
        }
        for (String contentTopic : contentTopics) {
            try {
                topics.add(sharding.pubsubTopic(contentTopic));
            } catch (ProtocolViolation e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        return topics;
    }
}
