package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.wakurelay.p2p.Connection;
import io.wakurelay.p2p.P2pException;
import io.wakurelay.p2p.Stream;
import io.wakurelay.p2p.StreamHandler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stream multiplexer on a secured connection: the last handler of the connection's pipeline. It reads the
 * muxer's frames from the decrypted bytes (payloads handed to streams as slices, never copied), opens and accepts
 * streams within {@link MuxerLimits}, and ends every stream when the connection ends. A peer that breaks the
 * muxer's protocol gets the connection closed ({@link MuxerEvents#violation}).
 */
public abstract class MuxerSession extends ChannelDuplexHandler {
    final ProtocolRegistry protocols;
    final MuxerLimits limits;
    final MuxerEvents events;
    final boolean initiator;
    private final Map<Long, MuxedStream> streams = new HashMap<>();
    ChannelHandlerContext ctx;
    volatile Connection connection;
    private int inboundStreams;
    private int outboundStreams;
    private boolean needsFlush;
    private boolean closed;

    /** @param initiator true on the side that dialled the connection (yamux: odd stream ids) */
    MuxerSession(boolean initiator, ProtocolRegistry protocols, MuxerLimits limits, MuxerEvents events) {
        this.initiator = initiator;
        this.protocols = protocols;
        this.limits = limits;
        this.events = events;
    }

    /** The multistream-select id of this muxer. */
    public abstract String protocolId();

    /** The connection the streams report as theirs; set once, before the session reads anything. */
    public void bind(Connection connection) {
        this.connection = connection;
    }

    /** Opens a stream from any thread; see {@link Connection#openStream}. */
    public Future<Stream> openStream(List<String> protocols, StreamHandler handler) {
        Promise<Stream> opened = ctx.executor().newPromise();
        if (ctx.executor().inEventLoop()) {
            open(protocols, handler, opened);
        } else {
            ctx.executor().execute(() -> open(protocols, handler, opened));
        }
        return opened;
    }

    private void open(List<String> protocolIds, StreamHandler handler, Promise<Stream> opened) {
        if (closed || !ctx.channel().isActive()) {
            opened.tryFailure(new P2pException.ConnectionClosed("the connection to " + peerName() + " is closed"));
            return;
        }
        if (outboundStreams >= limits.maxOutboundStreams()) {
            opened.tryFailure(new P2pException("this node already has " + outboundStreams + " streams open to "
                    + peerName() + " (limit " + limits.maxOutboundStreams() + ")"));
            return;
        }
        MuxedStream stream = newOutboundStream();
        if (stream == null) {
            opened.tryFailure(new P2pException.ConnectionClosed("the peer " + peerName() + " refuses new streams (go away)"));
            return;
        }
        streams.put(key(stream), stream);
        outboundStreams++;
        stream.startOutbound(protocolIds, handler, opened);
    }

    /** Allocates an id and announces a new outbound stream, or returns null when the peer accepts no more. */
    abstract MuxedStream newOutboundStream();

    /** The map key of a stream (mplex ids repeat across the two initiators). */
    abstract long key(MuxedStream stream);

    /** Reads frames from {@code in} (not released here). */
    abstract void decode(ByteBuf in);

    /** Tells the peer the session ends (yamux go-away); nothing for mplex. */
    void sendGoAway() {
    }

    /** Accepts a stream the peer opened, or returns false (the caller refuses it) past the limit. */
    final boolean acceptInbound(MuxedStream stream) {
        if (closed || inboundStreams >= limits.maxInboundStreams()) {
            events.streamRefused("too_many_streams");
            return false;
        }
        streams.put(key(stream), stream);
        inboundStreams++;
        stream.startInbound();
        return true;
    }

    final MuxedStream stream(long key) {
        return streams.get(key);
    }

    final void removed(MuxedStream stream) {
        if (streams.remove(key(stream)) == stream) {
            if (stream.isOutbound()) {
                outboundStreams--;
            } else {
                inboundStreams--;
            }
        }
    }

    /** Open streams (tests and metrics). */
    public final int openStreams() {
        return streams.size();
    }

    /** Writes a frame part; {@link #flush()} sends what was written. */
    final void write(ByteBuf frame, Promise<Void> promise) {
        if (promise == null) {
            ctx.write(frame, ctx.voidPromise());
        } else {
            ctx.write(frame).addListener(f -> {
                if (f.isSuccess()) {
                    promise.trySuccess(null);
                } else {
                    promise.tryFailure(f.cause());
                }
            });
        }
        needsFlush = true;
    }

    final void flush() {
        if (needsFlush) {
            needsFlush = false;
            ctx.flush();
        }
    }

    /** Ends the session: go-away, then the connection closes and every stream ends. */
    public final void close() {
        if (ctx.executor().inEventLoop()) {
            close0();
        } else {
            ctx.executor().execute(this::close0);
        }
    }

    private void close0() {
        if (!closed && ctx.channel().isActive()) {
            sendGoAway();
            flush();
        }
        ctx.close();
    }

    final String peerName() {
        Connection c = connection;
        return c == null ? String.valueOf(ctx.channel().remoteAddress()) : c.remotePeer().toString();
    }

    // ---- Netty

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (!closed) {
                decode(in);
            }
        } catch (MuxerException e) {
            events.violation(e);
            closed = true;
            ctx.close();
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        for (MuxedStream stream : new ArrayList<>(streams.values())) {
            stream.checkWritability();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        endAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        endAll();
    }

    private void endAll() {
        closed = true;
        if (streams.isEmpty()) {
            return;
        }
        P2pException.ConnectionClosed cause = new P2pException.ConnectionClosed("the connection to " + peerName() + " closed");
        for (MuxedStream stream : new ArrayList<>(streams.values())) {
            stream.connectionEnded(cause);
        }
        streams.clear();
    }

    final boolean isClosed() {
        return closed;
    }
}
