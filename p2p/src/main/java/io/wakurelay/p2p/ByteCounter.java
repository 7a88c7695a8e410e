package io.wakurelay.p2p;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/** Counts the socket's bytes as they are (encrypted), every byte a peer sends included. Shared by all channels. */
@ChannelHandler.Sharable
final class ByteCounter extends ChannelDuplexHandler {
    private final HostMetrics metrics;

    ByteCounter(HostMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf b) {
            metrics.bytesIn(b.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b) {
            metrics.bytesOut(b.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
