package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Counts the socket's bytes as they are (encrypted; with WebSocket framing and TLS on WebSocket), every byte a peer
 * sends included. One per transport, shared by its channels.
 */
@ChannelHandler.Sharable
final class ByteCounter extends ChannelDuplexHandler {
    private final HostMetrics metrics;
    private final Transport transport;

    ByteCounter(HostMetrics metrics, Transport transport) {
        this.metrics = metrics;
        this.transport = transport;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            metrics.bytesIn(transport, b.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b) {
            metrics.bytesOut(transport, b.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
