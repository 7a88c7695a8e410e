package io.wakurelay.p2p.ws;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;

/**
 * The listening side of the WebSocket upgrade: takes one HTTP request, and either upgrades the connection (a GET of
 * {@code /} with a WebSocket handshake, RFC 6455) and puts {@link WebSocketFrames} and then libp2p's upgrade in its
 * place, or answers with a 4xx that says what is wrong and closes: 426 for plain HTTP, 404 for another path, 405 for
 * another method, 400 for a malformed request. The handshake deadline of the connection covers this step too.
 */
final class WebSocketAcceptor extends ChannelInboundHandlerAdapter {
    /** The only path served: what js-libp2p, go-libp2p and nim-libp2p dial ({@code ws://host:port}). */
    static final String PATH = "/";

    private final WebSocketDecoderConfig decoderConfig;
    private final boolean secure;
    private final WebSocketEvents events;
    private final Runnable ready;
    private boolean done;

    /** @param ready adds libp2p's upgrade after this handler's replacement, once frames may flow */
    WebSocketAcceptor(WebSocketDecoderConfig decoderConfig, boolean secure, WebSocketEvents events, Runnable ready) {
        this.decoderConfig = decoderConfig;
        this.secure = secure;
        this.events = events;
        this.ready = ready;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (done || !(msg instanceof FullHttpRequest request)) {
            ReferenceCountUtil.release(msg); // a pipelined second request, or what follows a refusal
            return;
        }
        done = true;
        try {
            if (request.decoderResult().isFailure()) {
                refuse(ctx, HttpResponseStatus.BAD_REQUEST, "bad_request",
                        "a malformed HTTP request: " + request.decoderResult().cause().getMessage());
            } else if (!isUpgrade(request)) {
                refuse(ctx, HttpResponseStatus.UPGRADE_REQUIRED, "not_websocket", "this port serves libp2p over "
                        + "WebSocket (binary frames carrying multistream-select, Noise and yamux or mplex): connect "
                        + "with a WebSocket client to " + (secure ? "wss" : "ws") + "://<host>:<port>" + PATH);
            } else if (!PATH.equals(new QueryStringDecoder(request.uri()).path())) {
                refuse(ctx, HttpResponseStatus.NOT_FOUND, "wrong_path", "no WebSocket endpoint at " + request.uri()
                        + ": libp2p over WebSocket is served at " + PATH);
            } else if (!HttpMethod.GET.equals(request.method())) {
                refuse(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "bad_request", "a WebSocket upgrade is a GET, not "
                        + request.method());
            } else {
                upgrade(ctx, request);
            }
        } finally {
            request.release();
        }
    }

    private static boolean isUpgrade(FullHttpRequest request) {
        return request.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)
                && request.headers().contains(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true);
    }

    private void upgrade(ChannelHandlerContext ctx, FullHttpRequest request) {
        String url = (secure ? "wss://" : "ws://") + request.headers().get(HttpHeaderNames.HOST, "localhost") + PATH;
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshakerFactory(url, null, decoderConfig)
                .newHandshaker(request);
        if (handshaker == null) {
            events.requestRefused("unsupported_version");
            WebSocketServerHandshakerFactory.sendUnsupportedVersionResponse(ctx.channel())
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        // the handshaker writes the 101 and swaps the HTTP codec for the frame codec; our frames and libp2p's upgrade
        // go in now, so that a frame the peer sends right after the 101 finds them
        handshaker.handshake(ctx, request).addListener(f -> {
            if (!f.isSuccess()) {
                ctx.fireExceptionCaught(new WebSocketException(WebSocketException.UPGRADE_FAILED,
                        "the WebSocket upgrade failed: " + f.cause()));
            }
        });
        ctx.pipeline().replace(this, "ws-frames", new WebSocketFrames(events));
        ready.run();
    }

    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String reason, String text) {
        events.requestRefused(reason);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(text + "\n", StandardCharsets.UTF_8));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes())
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (status == HttpResponseStatus.UPGRADE_REQUIRED) {
            response.headers().set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET);
        }
        ctx.writeAndFlush(response).addListener(f -> ctx.fireExceptionCaught(new WebSocketException(
                WebSocketException.UPGRADE_FAILED, "refused an HTTP request on the WebSocket port with " + status
                + " (" + reason + ")")));
    }
}
