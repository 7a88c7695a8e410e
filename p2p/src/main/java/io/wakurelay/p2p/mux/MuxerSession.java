package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stream multiplexer on a secured connection: the last handler of the connection's pipeline. It reads the
 * muxer's frames from the decrypted bytes (payloads handed to streams as slices, never copied), opens and accepts
 * streams within {@link MuxerLimits}, and ends every stream when the connection ends. A peer that breaks the
 * muxer's protocol gets the connection closed ({@link MuxerEvents#violation}).
 *
 * <p>Replies respect the reader: what the session writes only because the peer sent something (a refused stream's
 * reset, a new stream's acknowledgement, a yamux pong, a stream's negotiation answer) is written only while the
 * connection is writable, else dropped and counted ({@link MuxerEvents#replyDropped}). And a read that wrote to a
 * connection left past its high water mark stops the reading ({@link ReadPauses.Reason#UNWRITABLE}) until the
 * connection is writable again, so that a peer that sends without reading cannot make this node queue without end.
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
    ReadPauses readPauses;
    /** In {@link #channelRead}: what is written now, the peer's bytes made this node write. */
    private boolean reading;
    private boolean wroteWhileReading;

    static final String TOO_MANY_STREAMS = "too_many_streams";
    static final String CONNECTION_UNWRITABLE = "connection_unwritable";
    static final String STREAM_REFUSAL = "stream_refusal";

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

    /**
     * Whether a stream the peer opens now may be accepted: not past the limit, and not while the connection is
     * unwritable (accepting writes the acknowledgement and the negotiation header: replies). A refusal is counted;
     * the caller then sends the refusal if {@link #mayReply} lets it.
     */
    final boolean admitInbound() {
        if (closed || inboundStreams >= limits.maxInboundStreams()) {
            events.streamRefused(TOO_MANY_STREAMS);
            return false;
        }
        if (!ctx.channel().isWritable()) {
            events.streamRefused(CONNECTION_UNWRITABLE);
            return false;
        }
        return true;
    }

    /** Starts a stream the peer opened, once {@link #admitInbound} admitted it. */
    final void acceptInbound(MuxedStream stream) {
        streams.put(key(stream), stream);
        inboundStreams++;
        stream.startInbound();
    }

    /**
     * Whether a reply (a frame written only because the peer sent something) may be written now: only while the
     * connection is writable. A reply that may not is dropped by the caller, and counted here.
     */
    final boolean mayReply(String reply) {
        if (ctx.channel().isWritable()) {
            return true;
        }
        events.replyDropped(reply);
        return false;
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
        if (reading) {
            wroteWhileReading = true;
        }
        writeFrame(frame, promise);
    }

    /**
     * Writes credit given back to the peer (a yamux window update), which never pauses reading: it is what lets a
     * peer that waits on this node's credit go on, and it is as small and as bounded as the data it grants for.
     */
    final void writeCredit(ByteBuf frame) {
        writeFrame(frame, null);
    }

    private void writeFrame(ByteBuf frame, Promise<Void> promise) {
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
        this.readPauses = ReadPauses.of(ctx.channel(), events::readPaused);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        reading = true;
        try {
            if (!closed) {
                decode(in);
            }
        } catch (MuxerException e) {
            events.violation(e);
            closed = true;
            ctx.close();
        } finally {
            reading = false;
            in.release();
        }
    }

    /**
     * Flushes what the reads wrote, and stops reading when they wrote to a connection now past its high water mark:
     * the peer sends faster than it reads what its sending makes this node write.
     *
     * <p>Only a read that wrote pauses, not any read of an unwritable connection. Two nodes that each stopped
     * reading because their own queue toward the other is full would wait on each other for ever (each queue drains
     * only when the other side reads). That is the common case of bulk data one way and its answers the other: the
     * sender's queue is full of its own writes (made when the connection turned writable, not while reading), and it
     * must keep reading the answers so that the answering side can drain. So the sender keeps reading and only the
     * side whose reads make it write pauses, which is the side a reader that never reads could otherwise fill. The
     * case that remains, both sides answering each other past their marks at once, stalls both connections' writes:
     * the host's write-stall deadline closes them ({@code HostConfig.writeStallTimeout}), as go-yamux's
     * ConnectionWriteTimeout ends a session whose receive loop blocked on a full send queue. Credit (yamux window
     * updates) never pauses: it is what a peer that waits on this node's credit needs to go on.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        boolean wrote = wroteWhileReading;
        wroteWhileReading = false;
        flush();
        if (wrote && !ctx.channel().isWritable() && ctx.channel().isActive()) {
            readPauses.hold(ReadPauses.Reason.UNWRITABLE);
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            readPauses.release(ReadPauses.Reason.UNWRITABLE);
        }
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
