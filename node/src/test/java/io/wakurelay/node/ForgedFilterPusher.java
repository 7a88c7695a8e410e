package io.wakurelay.node;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.HostConfig;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.filter.FilterConfig;
import io.wakurelay.services.proto.MessagePush;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The attacker of issue 43's N4: any peer, not the filter service node, opens
 * {@value FilterConfig#PUSH_PROTOCOL_ID} to a node that uses a filter service node and writes a {@code MessagePush}
 * of its own making. Public, for a node-level attacker (the hostile-peer fuzzer): one host of its own on the given
 * loopback address, under a fresh identity.
 */
public final class ForgedFilterPusher implements AutoCloseable {
    private final Host host;

    /** @param ip the loopback address it dials from (127.0.0.x) */
    public ForgedFilterPusher(String ip) {
        this.host = Host.start(HostConfig.DEFAULTS.toBuilder().listenAddress(new InetSocketAddress(ip, 0)).build(),
                PrivateKey.generateEd25519(), new SimpleMeterRegistry());
    }

    /**
     * Writes one forged push of {@code message} on {@code pubsubTopic} to {@code target} and closes its side.
     *
     * @return true when the target reset the stream (refused it), false when it closed or took it
     */
    public boolean push(Multiaddr target, String pubsubTopic, WakuMessage message, Duration timeout) throws Exception {
        Connection connection = host.dial(target).block(timeout);
        CompletableFuture<Boolean> reset = new CompletableFuture<>();
        Stream stream = connection.openStream(FilterConfig.PUSH_PROTOCOL_ID, new StreamHandler() {
            @Override
            public void onData(Stream s, ByteBuf data) {
                data.release();
            }

            @Override
            public void onRemoteClosed(Stream s) {
                reset.complete(false);
            }

            @Override
            public void onClosed(Stream s, Throwable cause) {
                reset.complete(cause != null);
            }
        }).block(timeout);
        byte[] push = MessagePush.newBuilder().setPubsubTopic(pubsubTopic).setWakuMessage(message).build().toByteArray();
        ByteBuf frame = Unpooled.buffer(push.length + 5);
        Uvarint.write(frame, push.length);
        frame.writeBytes(push);
        stream.write(frame);
        stream.closeWrite();
        try {
            return reset.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            stream.reset();
            return false; // neither closed nor reset: taken and left open
        }
    }

    @Override
    public void close() {
        host.close();
    }
}
