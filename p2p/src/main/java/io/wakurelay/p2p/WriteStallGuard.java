package io.wakurelay.p2p;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelProgressiveFuture;
import io.netty.channel.ChannelProgressiveFutureListener;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseNotifier;
import io.netty.util.concurrent.ScheduledFuture;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose socket has taken none of the bytes waiting for it for {@link HostConfig#writeStallTimeout()}:
 * its peer stopped reading. The first handler of an upgraded connection's pipeline, so that it sees every write
 * as it goes to the socket and hears, through a progressive promise, each time the socket takes some of it.
 *
 * <p>What it bounds is time, not memory (the high water mark and the read pause bound memory): a peer that reads
 * nothing would otherwise hold its connection, its slot and what is queued for it for ever, and two nodes that both
 * stopped reading each other (see {@code MuxerSession#channelReadComplete}) would never let go. As go-yamux's
 * ConnectionWriteTimeout, it is about writes that make no progress at all; a slow reader that takes a little at a
 * time keeps its connection. On the connection's event loop; its clock is the event loop's.
 */
final class WriteStallGuard extends ChannelOutboundHandlerAdapter implements ChannelProgressiveFutureListener {
    private final long timeoutNanos;
    private final Runnable onStall;
    private ChannelHandlerContext ctx;
    /** When the socket last took bytes, or when bytes began to wait after none did. */
    private long lastProgressNanos;
    private ScheduledFuture<?> check;

    /** @param onStall closes the connection, noting why */
    WriteStallGuard(Duration timeout, Runnable onStall) {
        this.timeoutNanos = timeout.toNanos();
        this.onStall = onStall;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        cancel();
        ctx.close(promise);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf)) {
            ctx.write(msg, promise);
            return;
        }
        if (waitingBytes() == 0) {
            lastProgressNanos = now(); // the clock starts when bytes begin to wait, not at the last progress
        }
        // the socket reports how much of the buffer it took; the caller's promise still hears the outcome (a void
        // promise made real first, so that a failure still reaches the pipeline as it would have)
        ChannelProgressivePromise tracked = ctx.newProgressivePromise();
        tracked.addListener(this);
        PromiseNotifier.cascade(tracked, promise.isVoid() ? promise.unvoid() : promise);
        ctx.write(msg, tracked);
        if (check == null) {
            check = ctx.executor().schedule(this::check, timeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
        lastProgressNanos = now();
    }

    @Override
    public void operationComplete(ChannelProgressiveFuture future) {
        lastProgressNanos = now();
    }

    private void check() {
        check = null;
        if (!ctx.channel().isActive() || waitingBytes() == 0) {
            return; // the next write arms the check again
        }
        long idle = now() - lastProgressNanos;
        if (idle >= timeoutNanos) {
            onStall.run();
            return;
        }
        check = ctx.executor().schedule(this::check, timeoutNanos - idle, TimeUnit.NANOSECONDS);
    }

    /** Bytes written and not yet taken by the socket, flushed or not. */
    private long waitingBytes() {
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        return out == null ? 0 : out.totalPendingWriteBytes();
    }

    private long now() {
        return ctx.executor().ticker().nanoTime();
    }

    private void cancel() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }
}
