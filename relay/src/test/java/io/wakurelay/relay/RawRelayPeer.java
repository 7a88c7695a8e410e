package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.LengthPrefixedHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.relay.proto.Message;
import io.wakurelay.relay.proto.RPC;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A peer that speaks relay by hand: it writes whatever RPCs a test builds on its relay stream to the node under
 * test, and keeps what the node writes to it (unless it never reads it). For tests of hostile and misbehaving peers.
 */
final class RawRelayPeer implements AutoCloseable {
    final Host host;
    final List<RPC> received = new CopyOnWriteArrayList<>();
    private Connection connection;
    private Stream stream;

    RawRelayPeer(int index) {
        host = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0." + (index + 2), 0)).build(),
                PrivateKey.generateEd25519(), new SimpleMeterRegistry());
        host.handle(Relay.PROTOCOL_ID, s -> new LengthPrefixedHandler(1 << 20, (st, rpc) -> {
            try {
                received.add(RPC.parseFrom(rpc.nioBuffer()));
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError(e);
            }
            return true;
        }));
    }

    /**
     * From now on this peer takes the relay stream the node opens to it and never reads it: it grants no credit, so
     * what the node writes to it waits in the node's queue. Call before {@link #connect}.
     */
    RawRelayPeer neverReading() {
        host.handle(Relay.PROTOCOL_ID, s -> new StreamHandler() {
            @Override
            public void onOpen(Stream stream) {
                stream.pauseReading();
            }

            @Override
            public void onData(Stream stream, ByteBuf data) {
                data.release();
            }
        });
        return this;
    }

    /** Connects to the node and opens this peer's relay stream to it. */
    Connection connect(Multiaddr node) {
        connection = host.dial(node).block(Duration.ofSeconds(10));
        openNewStream();
        return connection;
    }

    /** Opens another relay stream on the connection; {@link #send} and {@link #sendRaw} write on it from now on. */
    Stream openNewStream() {
        stream = connection.openStream(Relay.PROTOCOL_ID, new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }
        }).block(Duration.ofSeconds(10));
        return stream;
    }

    /** The relay stream {@link #send} writes on. */
    Stream stream() {
        return stream;
    }

    void send(RPC rpc) {
        stream.write(Frames.lengthPrefixed(stream.alloc(), rpc));
    }

    /** Writes bytes as they are: part of a length-prefixed RPC, or anything else. */
    void sendRaw(byte[] bytes) {
        stream.write(Unpooled.wrappedBuffer(bytes));
    }

    /** The RPC that subscribes to {@link Messages#TOPIC}. */
    static RPC subscribe() {
        return RPC.newBuilder().addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(Messages.TOPIC)).build();
    }

    /** The RPC that publishes {@code data} (a WakuMessage's bytes, or anything) on {@link Messages#TOPIC}. */
    static RPC publish(ByteString data) {
        return RPC.newBuilder().addPublish(Message.newBuilder().setTopic(Messages.TOPIC).setData(data)).build();
    }

    /** An RPC as it goes on the wire: its length, then its bytes. */
    static byte[] lengthPrefixed(RPC rpc) {
        ByteBuf buf = Frames.lengthPrefixed(UnpooledByteBufAllocator.DEFAULT, rpc);
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    boolean connectedTo(Host node) {
        return host.connection(node.peerId()).isPresent();
    }

    @Override
    public void close() {
        host.close();
    }
}
