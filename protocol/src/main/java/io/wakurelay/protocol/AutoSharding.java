package io.wakurelay.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Automatic sharding (rfc-index waku/standards/core/relay-sharding, "Automatic Sharding"): a content topic's shard
 * is the last 8 bytes of sha256(application || version), read as a big-endian unsigned number, modulo the number of
 * shards in the network; its pubsub topic is {@code /waku/2/rs/<cluster>/<shard>}. Only generation 0 exists: a
 * content topic with an explicit generation other than 0 has no shard. The same computation as js-waku's
 * {@code contentTopicToShardIndex} and nwaku's {@code getShard} (AutoShardingTest has js-waku's answers).
 *
 * @param clusterId          the network's cluster (0..65535)
 * @param numShardsInNetwork how many shards the network's content topics are spread over (1..1024, as nwaku)
 */
public record AutoSharding(int clusterId, int numShardsInNetwork) {
    public static final int MAX_SHARDS = 1024;
    /** Callers check their own, smaller limit first; this one only keeps the check's arithmetic in range. */
    private static final int MAX_TOPIC_BYTES = 1 << 16;

    public AutoSharding {
        if (clusterId < 0 || clusterId > 0xFFFF) {
            throw new IllegalArgumentException("a cluster id is 0..65535, was " + clusterId);
        }
        if (numShardsInNetwork < 1 || numShardsInNetwork > MAX_SHARDS) {
            throw new IllegalArgumentException("the number of shards in the network is 1.." + MAX_SHARDS + ", was " + numShardsInNetwork);
        }
    }

    /**
     * @param contentTopic {@code /{application}/{version}/{topic}/{encoding}}, or with a leading generation {@code /0/...}
     * @throws ProtocolViolation {@link Violation#INVALID_CONTENT_TOPIC} for a malformed topic or a generation other than 0
     */
    public int shard(String contentTopic) {
        Topics.checkShardableContentTopic(contentTopic, MAX_TOPIC_BYTES);
        String[] segments = contentTopic.substring(1).split("/", -1);
        int first = segments.length == 5 ? 1 : 0;
        if (first == 1 && Integer.parseInt(segments[0]) != 0) {
            throw new ProtocolViolation(Violation.INVALID_CONTENT_TOPIC,
                    "'" + contentTopic + "': only generation 0 of automatic sharding exists");
        }
        MessageDigest sha256 = sha256();
        sha256.update(segments[first].getBytes(StandardCharsets.UTF_8));
        sha256.update(segments[first + 1].getBytes(StandardCharsets.UTF_8));
        long last8 = ByteBuffer.wrap(sha256.digest(), 24, 8).getLong();
        return (int) Long.remainderUnsigned(last8, numShardsInNetwork);
    }

    /** @return {@code /waku/2/rs/<cluster>/<shard>} of the content topic (see {@link #shard}) */
    public String pubsubTopic(String contentTopic) {
        return "/waku/2/rs/" + clusterId + "/" + shard(contentTopic);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
