package io.wakurelay.p2p.mss;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.wakurelay.p2p.wire.OpeningDecoder;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * multistream-select on a whole connection (choosing the security protocol on the raw socket, then the muxer inside
 * Noise). When a protocol is agreed it calls {@code onSelected}, which adds the protocol's handler after this one,
 * and removes itself: bytes that followed the agreement in the same read go on to that handler. A failure reaches
 * the pipeline as an exception ({@link NegotiationException} inside a decoder exception).
 */
public final class MultistreamHandler extends OpeningDecoder {
    private final MultistreamSelect negotiation;
    private final BiConsumer<ChannelHandlerContext, String> onSelected;

    public MultistreamHandler(MultistreamSelect negotiation, BiConsumer<ChannelHandlerContext, String> onSelected) {
        this.negotiation = negotiation;
        this.onSelected = onSelected;
    }

    @Override
    protected void open(ChannelHandlerContext ctx) {
        ByteBuf out = ctx.alloc().buffer(64);
        negotiation.start(out);
        ctx.writeAndFlush(out);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ByteBuf reply = ctx.alloc().buffer(64);
        String selected;
        try {
            selected = negotiation.read(in, reply);
        } catch (RuntimeException e) {
            reply.release();
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (reply.isReadable()) {
            ctx.writeAndFlush(reply);
        } else {
            reply.release();
        }
        if (selected != null) {
            onSelected.accept(ctx, selected);
            ctx.pipeline().remove(this);
        }
    }
}
