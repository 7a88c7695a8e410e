package io.wakurelay.p2p.ws;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.util.ReferenceCountUtil;

import java.net.URI;

/**
 * The dialling side of the WebSocket upgrade: sends the HTTP upgrade request once the socket (and TLS) is up, checks
 * the 101 answer, then puts {@link WebSocketFrames} and libp2p's upgrade in its place. Any other answer fails the
 * connection's handshake with a {@link WebSocketException} ({@code websocket_upgrade_failed}) that quotes it.
 */
final class WebSocketDialHandshake extends ChannelInboundHandlerAdapter {
    private final WebSocketClientHandshaker handshaker;
    private final WebSocketEvents events;
    private final Runnable ready;
    private boolean started;

    WebSocketDialHandshake(URI uri, int maxFrameBytes, WebSocketEvents events, Runnable ready) {
        // no subprotocol and no extensions, as js-libp2p and go-libp2p dial; masking as a client must
        this.handshaker = WebSocketClientHandshakerFactory.newHandshaker(uri, WebSocketVersion.V13, null, false,
                EmptyHttpHeaders.INSTANCE, maxFrameBytes);
        this.events = events;
        this.ready = ready;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    private void start(ChannelHandlerContext ctx) {
        if (!started) {
            started = true;
            handshaker.handshake(ctx.channel()).addListener(f -> {
                if (!f.isSuccess()) {
                    ctx.fireExceptionCaught(f.cause());
                }
            });
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpResponse response)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            handshaker.finishHandshake(ctx.channel(), response);
        } catch (WebSocketHandshakeException e) {
            ctx.fireExceptionCaught(new WebSocketException(WebSocketException.UPGRADE_FAILED,
                    "the WebSocket upgrade to " + handshaker.uri() + " was answered " + response.status() + ": "
                            + e.getMessage()));
            return;
        } finally {
            response.release();
        }
        ctx.pipeline().replace(this, "ws-frames", new WebSocketFrames(events));
        ready.run();
    }
}
