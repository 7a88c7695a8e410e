package io.wakurelay.relay;

import com.google.protobuf.InvalidProtocolBufferException;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.LengthPrefixedHandler;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.protocol.Topics;
import io.wakurelay.relay.proto.WakuMetadataRequest;
import io.wakurelay.relay.proto.WakuMetadataResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Waku metadata {@code /vac/waku/metadata/1.0.0} (rfc-index core/66): each side tells its cluster id and shards.
 * This node asks every new peer and disconnects one of another cluster ({@code cluster_mismatch}); it answers every
 * peer that asks and disconnects a requester of another cluster after answering. A peer that does not speak
 * metadata (a bare libp2p peer) is kept. The client reads the answer whenever it comes: js-waku's server writes it
 * before reading the request.
 */
final class MetadataProtocol {
    private static final Logger log = LoggerFactory.getLogger(MetadataProtocol.class);
    static final String PROTOCOL_ID = "/vac/waku/metadata/1.0.0";
    private static final int MAX_MESSAGE_BYTES = 4096;
    private static final String PREFIX = "/waku/2/rs/";

    private final IntSupplier clusterId;
    private final Supplier<Set<String>> topics;
    private final RouterEvents events;

    /** @param events null without relay (edge mode): a mismatch is then not counted */
    MetadataProtocol(IntSupplier clusterId, Supplier<Set<String>> topics, RouterEvents events) {
        this.clusterId = clusterId;
        this.topics = topics;
        this.events = events;
    }

    /** The shards of this node's cluster among its topics. */
    List<Integer> shards() {
        Set<Integer> shards = new LinkedHashSet<>();
        for (String topic : topics.get()) {
            shardOf(topic, clusterId.getAsInt()).ifPresent(shards::add);
        }
        return List.copyOf(shards);
    }

    /** The shard of {@code topic} when it is a static-sharding topic of cluster {@code clusterId}. */
    static OptionalInt shardOf(String topic, int clusterId) {
        return topic.startsWith(PREFIX + clusterId + "/") ? Topics.shardOf(topic) : OptionalInt.empty();
    }

    ProtocolHandler server() {
        return stream -> oneMessage(stream.connection(), bytes -> {
            WakuMetadataRequest request = WakuMetadataRequest.parseFrom(bytes);
            List<Integer> shards = shards();
            WakuMetadataResponse response = WakuMetadataResponse.newBuilder().setClusterId(clusterId.getAsInt())
                    .addAllShards(shards).addAllShardsPacked(shards).build();
            stream.write(Frames.lengthPrefixed(stream.alloc(), response));
            stream.closeWrite();
            if (request.hasClusterId() && request.getClusterId() != clusterId.getAsInt()) {
                mismatch(stream.connection(), request.getClusterId());
            }
        });
    }

    /** Asks the peer of {@code connection} for its cluster; disconnects it when the cluster is another. */
    void query(Connection connection) {
        StreamHandler reader = oneMessage(connection, bytes -> {
            WakuMetadataResponse response = WakuMetadataResponse.parseFrom(bytes);
            if (response.hasClusterId() && response.getClusterId() != clusterId.getAsInt()) {
                mismatch(connection, response.getClusterId());
            }
        });
        connection.openStream(PROTOCOL_ID, reader).subscribe(stream -> {
            List<Integer> shards = shards();
            WakuMetadataRequest request = WakuMetadataRequest.newBuilder().setClusterId(clusterId.getAsInt())
                    .addAllShards(shards).addAllShardsPacked(shards).build();
            stream.write(Frames.lengthPrefixed(stream.alloc(), request));
            stream.closeWrite();
        }, e -> {
            if (!(e instanceof NegotiationException.NotSupported)) {
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer())).addKeyValue("reason", e.toString())
                        .log("metadata request failed");
            }
        });
    }

    private void mismatch(Connection connection, int theirs) {
        log.atInfo().addKeyValue("peer", String.valueOf(connection.remotePeer())).addKeyValue("cluster", theirs)
                .addKeyValue("ourCluster", clusterId.getAsInt()).log("disconnecting a peer of another cluster");
        if (events != null) { // null where metadata is served without relay (edge mode)
            events.disconnected("cluster_mismatch");
        }
        connection.close();
    }

    private interface MessageConsumer {
        void accept(java.nio.ByteBuffer bytes) throws InvalidProtocolBufferException;
    }

    /** Reads one length-prefixed message from a stream and hands it over; one that does not parse resets the stream. */
    private static StreamHandler oneMessage(Connection connection, MessageConsumer consumer) {
        return new LengthPrefixedHandler(MAX_MESSAGE_BYTES, (stream, message) -> {
            try {
                consumer.accept(message.nioBuffer());
            } catch (InvalidProtocolBufferException e) {
                log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer())).addKeyValue("reason", e.getMessage())
                        .log("malformed metadata");
                stream.reset();
            }
            return false;
        });
    }
}
