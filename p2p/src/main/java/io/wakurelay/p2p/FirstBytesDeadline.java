package io.wakurelay.p2p;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The deadline of an inbound socket's first bytes ({@link HostConfig#firstBytesTimeout()}): an honest libp2p dialer
 * sends its multistream-select header as soon as it is connected, so a socket that is silent for seconds holds its
 * slot for nothing. It then fails the handshake with its own outcome ({@link #OUTCOME}); the first bytes end the
 * deadline, and this handler leaves the pipeline. First in an inbound socket's pipeline.
 */
final class FirstBytesDeadline extends ChannelInboundHandlerAdapter {
    /** The handshake outcome ({@code libp2p_handshakes_total}) of a socket that sent nothing in time. */
    static final String OUTCOME = "first_bytes_timeout";

    private final Duration timeout;
    private ScheduledFuture<?> deadline;

    FirstBytesDeadline(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(() -> ctx.fireExceptionCaught(new HandshakeException(OUTCOME,
                "no bytes from " + ctx.channel().remoteAddress() + " within " + timeout, null)),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.pipeline().remove(this);
        ctx.fireChannelRead(msg);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        deadline.cancel(false);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        deadline.cancel(false);
        ctx.fireChannelInactive();
    }
}
