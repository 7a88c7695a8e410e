package io.wakurelay.p2p.wire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * A decoder of a protocol whose side may speak first (multistream-select's header, Noise's first message): it opens
 * once its channel is active, whether it was added to an active channel or the channel became active later, and only
 * once.
 */
public abstract class OpeningDecoder extends ByteToMessageDecoder {
    private boolean opened;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            openOnce(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        openOnce(ctx);
        super.channelActive(ctx);
    }

    private void openOnce(ChannelHandlerContext ctx) {
        if (!opened) {
            opened = true;
            open(ctx);
        }
    }

    /** Writes what this side says first, if anything; called once, on the event loop, when the channel is active. */
    protected abstract void open(ChannelHandlerContext ctx);
}
