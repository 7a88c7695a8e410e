package io.wakurelay.relay;

import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** Counts the bytes read from peer sockets, garbage included, before any decoding. */
@ChannelHandler.Sharable
final class InboundByteCounter extends ChannelInboundHandlerAdapter {
    private final Counter bytesReceived;

    InboundByteCounter(Counter bytesReceived) {
        this.bytesReceived = bytesReceived;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            bytesReceived.increment(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }
}
