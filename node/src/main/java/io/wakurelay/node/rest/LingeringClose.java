package io.wakurelay.node.rest;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Answers an oversized request line 431, as nwaku's HTTP server (chronos) answers a request line and headers over its
 * limit, where Reactor Netty says 414; and lets a client that is still sending an oversized request line or header
 * read the 431 it was answered.
 * Reactor Netty answers them and closes at once; the client, still writing its request (a 5.9 MB query string, say),
 * then gets a reset, which throws away the answer in its receive buffer, instead of the status nwaku sends. Here
 * the close of such a connection only ends the node's side (the answer is complete and the client sees the end), and
 * what the client goes on sending is read and dropped until it closes too, or at most {@link #LINGER}.
 *
 * <p>Sits just after the HTTP codec, where the answer still is an {@link HttpResponse}. Holds nothing: what is read
 * while lingering is released at once; the bound is the time.
 */
final class LingeringClose extends ChannelDuplexHandler {
    static final String NAME = "wakurelay.lingeringClose";
    /** How long a refused client may go on sending before the connection is closed anyway (reset, as before). */
    static final Duration LINGER = Duration.ofSeconds(5);

    private boolean refusedHead;
    private boolean lingering;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response) {
            int code = response.status().code();
            refusedHead = code == HttpResponseStatus.REQUEST_URI_TOO_LONG.code()
                    || code == HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE.code();
            if (code == HttpResponseStatus.REQUEST_URI_TOO_LONG.code()) {
                // chronos counts the request line with the headers, and says 431 for either; scripts check for it
                response.setStatus(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (!refusedHead || lingering || !(ctx.channel() instanceof DuplexChannel channel) || !channel.isActive()) {
            ctx.close(promise);
            return;
        }
        lingering = true;
        channel.config().setAutoRead(true);
        channel.shutdownOutput().addListener(done -> {
            // the client reads the answer and the end of it; whatever it still sends is dropped below
            ctx.executor().schedule(() -> {
                if (channel.isOpen()) {
                    ctx.close(promise);
                }
            }, LINGER.toMillis(), TimeUnit.MILLISECONDS);
        });
        channel.closeFuture().addListener(closed -> promise.trySuccess());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (lingering) {
            ReferenceCountUtil.release(msg);
            ctx.read();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (lingering && evt instanceof io.netty.channel.socket.ChannelInputShutdownEvent) {
            ctx.close(); // the client finished sending and closed its side
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }
}
