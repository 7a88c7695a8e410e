package io.wakurelay.p2p;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose socket has taken none of the bytes waiting for it for {@link HostConfig#writeStallTimeout()}:
 * its peer stopped reading. The first handler of an upgraded connection's pipeline, next to the socket.
 *
 * <p>What it bounds is time, not memory (the high water mark and the read pause bound memory): a peer that reads
 * nothing would otherwise hold its connection, its slot and what is queued for it for ever, and two nodes that both
 * stopped reading each other (see {@code MuxerSession#channelReadComplete}) would never let go. As go-yamux's
 * ConnectionWriteTimeout, it is about writes that make no progress at all; a slow reader that takes a little at a
 * time keeps its connection.
 *
 * <p>It costs the write path no allocation: a write only notes when bytes begin to wait, and while some wait a check
 * every quarter of the timeout looks at the socket's progress as Netty's {@code IdleStateHandler} observes output
 * (the message at the head of the outbound buffer and how much of it was written). A stall is found between one and
 * one and a quarter timeouts after the socket last took something. On the connection's event loop; its clock is the
 * event loop's.
 */
final class WriteStallGuard extends ChannelOutboundHandlerAdapter {
    /** No check looked at the outbound buffer since bytes began to wait. */
    private static final Object UNSEEN = new Object();
    /** The outbound buffer held only bytes not flushed yet. */
    private static final Object NO_HEAD = new Object();

    private final long timeoutNanos;
    private final long periodNanos;
    private final Runnable onStall;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> check;
    /** When the socket last took bytes, or when bytes began to wait after none did. */
    private long lastProgressNanos;
    /** What the last check saw at the head of the outbound buffer (compared by identity only), and its progress. */
    private Object lastHead = UNSEEN;
    private long lastHeadProgress;

    /** @param onStall closes the connection, noting why */
    WriteStallGuard(Duration timeout, Runnable onStall) {
        this.timeoutNanos = timeout.toNanos();
        this.periodNanos = Math.max(1, timeoutNanos / 4);
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
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        if (out != null && out.totalPendingWriteBytes() == 0) {
            // nothing was waiting: the clock starts now, not at the socket's last progress
            lastProgressNanos = now();
            lastHead = UNSEEN;
        }
        if (check == null) {
            check = ctx.executor().schedule(this::check, periodNanos, TimeUnit.NANOSECONDS);
        }
        ctx.write(msg, promise);
    }

    private void check() {
        check = null;
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        if (!ctx.channel().isActive() || out == null || out.totalPendingWriteBytes() == 0) {
            return; // the next write arms the check again
        }
        Object current = out.current();
        Object head = current == null ? NO_HEAD : current;
        long progress = out.currentProgress();
        long now = now();
        if (lastHead == UNSEEN) {
            lastHead = head; // the first look since bytes began to wait: the clock runs from the write
            lastHeadProgress = progress;
        } else if (head != lastHead || progress != lastHeadProgress) {
            lastHead = head; // the socket took a message, or part of one, since the last check
            lastHeadProgress = progress;
            lastProgressNanos = now;
        } else if (now - lastProgressNanos >= timeoutNanos) {
            lastHead = UNSEEN;
            onStall.run();
            return;
        }
        check = ctx.executor().schedule(this::check, periodNanos, TimeUnit.NANOSECONDS);
    }

    private long now() {
        return ctx.executor().ticker().nanoTime();
    }

    private void cancel() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        lastHead = UNSEEN;
    }
}
