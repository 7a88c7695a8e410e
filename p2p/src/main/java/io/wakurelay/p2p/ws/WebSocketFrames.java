package io.wakurelay.p2p.ws;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.util.ReferenceCountUtil;
import io.wakurelay.p2p.mux.ReadPauses;

/**
 * Turns an upgraded WebSocket into the byte stream libp2p's upgrade runs on: the payload of each binary frame (and
 * of its continuations) goes on as it is, every buffer written goes out as one binary frame. A ping is answered
 * with a pong as go-yamux and this host's yamux answer theirs: at most one pong waits to be written, and none while
 * the connection is past its write high water mark (a ping then is counted and dropped, as the host's other replies
 * are, and reading pauses until the connection is writable again: {@link ReadPauses.Reason#UNWRITABLE}); so a peer
 * that pings without reading the pongs gets at most one queued (issue 43, N2). A close frame closes the connection,
 * and closing it sends one. A text frame, a frame over the bound or broken
 * framing ends the connection with a {@link WebSocketException} naming why, after a close frame with the matching
 * status (1003, 1009, 1002).
 */
final class WebSocketFrames extends ChannelDuplexHandler {
    private final WebSocketEvents events;
    private boolean inTextMessage;
    /** A pong was written and has not reached the socket yet. */
    private boolean pongPending;
    private boolean closeSent;
    private WebSocketCloseStatus closeStatus = WebSocketCloseStatus.NORMAL_CLOSURE;

    WebSocketFrames(WebSocketEvents events) {
        this.events = events;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof BinaryWebSocketFrame frame) {
            inTextMessage = false;
            data(ctx, frame.content());
        } else if (msg instanceof ContinuationWebSocketFrame frame && !inTextMessage) {
            data(ctx, frame.content());
        } else if (msg instanceof TextWebSocketFrame || msg instanceof ContinuationWebSocketFrame) {
            ReferenceCountUtil.release(msg);
            inTextMessage = true;
            violation(ctx, WebSocketException.TEXT_FRAME, WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                    "a text frame: libp2p over WebSocket carries binary frames only");
        } else if (msg instanceof PingWebSocketFrame ping) {
            pinged(ctx, ping);
        } else if (msg instanceof PongWebSocketFrame pong) {
            pong.release();
        } else if (msg instanceof CloseWebSocketFrame close) {
            close.release();
            closeSent = !ctx.channel().isActive(); // answer the peer's close with ours, then close
            ctx.channel().close();
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void pinged(ChannelHandlerContext ctx, PingWebSocketFrame ping) {
        if (!ctx.channel().isWritable()) {
            ping.release();
            events.pongDropped();
            ReadPauses.of(ctx.channel(), events::readPaused).hold(ReadPauses.Reason.UNWRITABLE);
        } else if (pongPending) {
            ping.release();
            events.pongDropped();
        } else {
            pongPending = true;
            ctx.writeAndFlush(new PongWebSocketFrame(ping.content())).addListener(f -> pongPending = false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            ReadPauses.of(ctx.channel(), events::readPaused).release(ReadPauses.Reason.UNWRITABLE);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private static void data(ChannelHandlerContext ctx, ByteBuf payload) {
        if (payload.isReadable()) {
            ctx.fireChannelRead(payload);
        } else {
            payload.release();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof CorruptedWebSocketFrameException corrupted) {
            boolean tooLarge = corrupted.closeStatus() != null
                    && corrupted.closeStatus().code() == WebSocketCloseStatus.MESSAGE_TOO_BIG.code();
            violation(ctx, tooLarge ? WebSocketException.FRAME_TOO_LARGE : WebSocketException.PROTOCOL_ERROR,
                    tooLarge ? WebSocketCloseStatus.MESSAGE_TOO_BIG : WebSocketCloseStatus.PROTOCOL_ERROR,
                    corrupted.getMessage());
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private void violation(ChannelHandlerContext ctx, String reason, WebSocketCloseStatus status, String message) {
        closeStatus = status;
        ctx.fireExceptionCaught(new WebSocketException(reason,
                message + " (from " + ctx.channel().remoteAddress() + ")"));
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ctx.write(msg instanceof ByteBuf data ? new BinaryWebSocketFrame(data) : msg, promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (!closeSent && ctx.channel().isActive()) {
            closeSent = true;
            ctx.writeAndFlush(new CloseWebSocketFrame(closeStatus));
        }
        ctx.close(promise);
    }
}
