package io.wakurelay.relay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.Stream;
import io.wakurelay.p2p.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.relay.proto.RPC;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A peer that speaks relay by hand: it writes whatever RPCs a test builds on its relay stream to the node under
 * test, and keeps what the node writes to it. For tests of hostile and misbehaving peers.
 */
final class RawRelayPeer implements AutoCloseable {
    final Host host;
    final List<RPC> received = new CopyOnWriteArrayList<>();
    private Stream stream;

    RawRelayPeer(int index) {
        host = Host.start(HostConfig.builder().listenAddress(new InetSocketAddress("127.0.0." + (index + 2), 0)).build(),
                PrivateKey.generateEd25519(), new SimpleMeterRegistry());
        host.handle(Relay.PROTOCOL_ID, s -> new StreamHandler() {
            private LengthPrefixedReader reader;

            @Override
            public void onOpen(Stream st) {
                reader = new LengthPrefixedReader(st.alloc(), 1 << 20);
            }

            @Override
            public void onData(Stream st, ByteBuf data) {
                reader.add(data);
                for (ByteBuf rpc; (rpc = reader.next()) != null; ) {
                    try {
                        received.add(RPC.parseFrom(rpc.nioBuffer()));
                    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                        throw new AssertionError(e);
                    } finally {
                        rpc.release();
                    }
                }
            }

            @Override
            public void onClosed(Stream st, Throwable cause) {
                reader.close();
            }
        });
    }

    /** Connects to the node and opens this peer's relay stream to it. */
    Connection connect(Multiaddr node) {
        Connection c = host.dial(node).block(Duration.ofSeconds(10));
        stream = c.openStream(Relay.PROTOCOL_ID, new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }
        }).block(Duration.ofSeconds(10));
        return c;
    }

    void send(RPC rpc) {
        byte[] bytes = rpc.toByteArray();
        ByteBuf out = stream.alloc().buffer(Uvarint.MAX_BYTES + bytes.length);
        Uvarint.write(out, bytes.length);
        out.writeBytes(bytes);
        stream.write(out);
    }

    boolean connectedTo(Host node) {
        return host.connection(node.peerId()).isPresent();
    }

    @Override
    public void close() {
        host.close();
    }
}
