package io.wakurelay.relay;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.Connection;
import io.wakurelay.p2p.ProtocolHandler;
import io.wakurelay.p2p.Stream;
import io.wakurelay.p2p.StreamHandler;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.p2p.wire.WireFormatException;
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
    private final RelayMetrics metrics;

    MetadataProtocol(IntSupplier clusterId, Supplier<Set<String>> topics, RelayMetrics metrics) {
        this.clusterId = clusterId;
        this.topics = topics;
        this.metrics = metrics;
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
        return stream -> new OneMessage(stream.connection(), bytes -> {
            WakuMetadataRequest request = WakuMetadataRequest.parseFrom(bytes);
            List<Integer> shards = shards();
            WakuMetadataResponse response = WakuMetadataResponse.newBuilder().setClusterId(clusterId.getAsInt())
                    .addAllShards(shards).addAllShardsPacked(shards).build();
            stream.write(frame(stream, response.toByteArray()));
            stream.closeWrite();
            if (request.hasClusterId() && request.getClusterId() != clusterId.getAsInt()) {
                mismatch(stream.connection(), request.getClusterId());
            }
        });
    }

    /** Asks the peer of {@code connection} for its cluster; disconnects it when the cluster is another. */
    void query(Connection connection) {
        OneMessage reader = new OneMessage(connection, bytes -> {
            WakuMetadataResponse response = WakuMetadataResponse.parseFrom(bytes);
            if (response.hasClusterId() && response.getClusterId() != clusterId.getAsInt()) {
                mismatch(connection, response.getClusterId());
            }
        });
        connection.openStream(PROTOCOL_ID, reader).subscribe(stream -> {
            List<Integer> shards = shards();
            WakuMetadataRequest request = WakuMetadataRequest.newBuilder().setClusterId(clusterId.getAsInt())
                    .addAllShards(shards).addAllShardsPacked(shards).build();
            stream.write(frame(stream, request.toByteArray()));
            stream.closeWrite();
        }, e -> {
            if (!(e instanceof NegotiationException.NotSupported)) {
                log.debug("metadata request to {} failed: {}", connection.remotePeer(), e.toString());
            }
        });
    }

    private void mismatch(Connection connection, int theirs) {
        log.info("disconnecting {}: it is in cluster {}, this node in cluster {}", connection.remotePeer(), theirs,
                clusterId.getAsInt());
        metrics.disconnected("cluster_mismatch");
        connection.close();
    }

    private static ByteBuf frame(Stream stream, byte[] message) {
        ByteBuf out = stream.alloc().buffer(Uvarint.size(message.length) + message.length);
        Uvarint.write(out, message.length);
        out.writeBytes(message);
        return out;
    }

    private interface MessageConsumer {
        void accept(java.nio.ByteBuffer bytes) throws InvalidProtocolBufferException;
    }

    /** Reads one length-prefixed message from a stream and hands it over. */
    private static final class OneMessage implements StreamHandler {
        private final Connection connection;
        private final MessageConsumer consumer;
        private LengthPrefixedReader reader;
        private boolean done;

        OneMessage(Connection connection, MessageConsumer consumer) {
            this.connection = connection;
            this.consumer = consumer;
        }

        @Override
        public void onOpen(Stream stream) {
            reader = new LengthPrefixedReader(stream.alloc(), MAX_MESSAGE_BYTES);
        }

        @Override
        public void onData(Stream stream, ByteBuf data) {
            if (done) {
                data.release();
                return;
            }
            reader.add(data);
            ByteBuf message;
            try {
                message = reader.next();
            } catch (WireFormatException e) {
                stream.reset();
                return;
            }
            if (message == null) {
                return;
            }
            done = true;
            reader.close();
            try {
                consumer.accept(message.nioBuffer());
            } catch (InvalidProtocolBufferException e) {
                log.debug("malformed metadata from {}: {}", connection.remotePeer(), e.getMessage());
                stream.reset();
            } finally {
                message.release();
            }
        }

        @Override
        public void onRemoteClosed(Stream stream) {
            stream.closeWrite();
        }

        @Override
        public void onClosed(Stream stream, Throwable cause) {
            if (reader != null) {
                reader.close();
            }
        }
    }
}
