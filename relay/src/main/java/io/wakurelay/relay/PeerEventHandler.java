package io.wakurelay.relay;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.wakurelay.protocol.ProtocolViolation;

/**
 * Sits after the frame decoder and hands its session what the pipeline reports: a framing violation (so the
 * session can say Goodbye before closing, which it could not if the error reached Reactor Netty first) and
 * reader-idle events for the Ping/Pong liveness check.
 */
final class PeerEventHandler extends ChannelInboundHandlerAdapter {
    private final PeerSession session;

    PeerEventHandler(PeerSession session) {
        this.session = session;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException && cause.getCause() instanceof ProtocolViolation violation) {
            session.onFramingViolation(violation);
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE) {
            session.onReaderIdle();
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }
}
