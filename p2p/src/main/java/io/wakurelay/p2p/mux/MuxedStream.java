package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.mss.MultistreamSelect;
import io.wakurelay.p2p.mss.NegotiationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What yamux and mplex streams share: the per-stream multistream-select negotiation, delivery to the handler with
 * pause and resume, half-close, reset, and writability. Runs on the connection's event loop; public methods called
 * from elsewhere are carried out there in call order. Subclasses put bytes on the wire.
 */
abstract class MuxedStream implements Stream {
    private static final Logger log = LoggerFactory.getLogger(MuxedStream.class);
    /** The {@link MuxerEvents#replyDropped} label of a negotiation answer the connection could not take. */
    static final String NEGOTIATION_ANSWER = "negotiation";

    final MuxerSession session;
    final long id;
    private final boolean outbound;
    private MultistreamSelect negotiation;
    private CompositeByteBuf negotiationInput;
    private ScheduledFuture<?> negotiationDeadline;
    private Promise<Stream> opened;
    private StreamHandler handler;
    private String protocol;

    private final ArrayDeque<ByteBuf> inbound = new ArrayDeque<>();
    private long inboundBytes;
    private boolean paused;
    private boolean delivering;
    private boolean remoteClosed;
    private boolean remoteClosedDelivered;
    private boolean localClosed;
    private boolean ended;
    private boolean writable = true;

    MuxedStream(MuxerSession session, long id, boolean outbound) {
        this.session = session;
        this.id = id;
        this.outbound = outbound;
    }

    // ---- called by the session, on the event loop

    /** An outbound stream: proposes {@code protocols}; {@code opened} completes when one is agreed. */
    void startOutbound(List<String> protocols, StreamHandler handler, Promise<Stream> opened) {
        this.handler = handler;
        this.opened = opened;
        this.negotiation = MultistreamSelect.dialer(protocols);
        startNegotiation();
    }

    /** An inbound stream: waits for the peer's proposals. */
    void startInbound() {
        this.negotiation = MultistreamSelect.listener(p -> session.protocols.handler(p) != null);
        startNegotiation();
    }

    private void startNegotiation() {
        negotiationDeadline = session.ctx.executor().schedule(() -> {
            if (protocol == null && !ended) {
                session.events.negotiationFailed("timeout");
                failNegotiation(new NegotiationException("no protocol agreed within " + session.limits.negotiationTimeout()));
            }
        }, session.limits.negotiationTimeout().toNanos(), TimeUnit.NANOSECONDS);
        ByteBuf out = alloc().buffer(64);
        negotiation.start(out);
        sendData(out, null);
        session.flush();
    }

    /** Bytes for this stream (ownership passes). */
    final void receive(ByteBuf data) {
        if (ended || remoteClosed) {
            data.release();
            return;
        }
        if (protocol == null) {
            negotiate(data);
            return;
        }
        inbound.add(data);
        inboundBytes += data.readableBytes();
        onInboundBuffered(inboundBytes);
        drain();
    }

    /** The peer closed its write side. */
    final void receiveClose() {
        if (ended || remoteClosed) {
            return;
        }
        remoteClosed = true;
        if (protocol == null) {
            failNegotiation(new NegotiationException("the peer closed the stream during protocol negotiation"));
            return;
        }
        drain();
    }

    /** The peer reset the stream. */
    final void receiveReset() {
        finish(new P2pException.StreamReset("stream reset by the peer"));
    }

    /** The connection ended. */
    final void connectionEnded(Throwable cause) {
        finish(cause);
    }

    final void checkWritability() {
        boolean now = isWritable();
        if (now != writable) {
            writable = now;
            if (handler != null && protocol != null && !ended) {
                try {
                    handler.onWritabilityChanged(this);
                } catch (RuntimeException e) {
                    handlerFailed("onWritabilityChanged", e);
                }
            }
        }
    }

    // ---- what subclasses put on the wire

    /** Sends {@code data} (ownership passes); completes {@code promise} (when not null) once it is on the connection. */
    abstract void sendData(ByteBuf data, Promise<Void> promise);

    /** Sends the half-close, after any data still queued. */
    abstract void sendCloseWrite();

    abstract void sendReset();

    /** {@code bytes} were delivered to the handler (yamux grants the peer credit for them). */
    abstract void consumed(int bytes);

    /** Bytes written and not yet handed to the connection. */
    abstract long pendingWriteBytes();

    /** The stream ended: release what waits to be written and fail its promises. */
    abstract void releaseWrites(Throwable cause);

    /** Inbound bytes now queued for a paused or busy reader (mplex enforces its bounds here). */
    void onInboundBuffered(long bytes) {
    }

    /** The stream is over (after its queues were released). */
    void onFinished() {
    }

    final long inboundBytes() {
        return inboundBytes;
    }

    final boolean localClosed() {
        return localClosed;
    }

    final boolean ended() {
        return ended;
    }

    // ---- negotiation and delivery

    private void negotiate(ByteBuf data) {
        if (negotiationInput == null) {
            negotiationInput = alloc().compositeBuffer(16);
        }
        negotiationInput.addComponent(true, data);
        ByteBuf out = alloc().buffer(64);
        String selected;
        int before = negotiationInput.readableBytes();
        try {
            selected = negotiation.read(negotiationInput, out);
            // the negotiation's own bytes count against the credit like any data (what follows is counted when delivered)
            consumed(before - negotiationInput.readableBytes());
        } catch (NegotiationException e) {
            out.release();
            session.events.negotiationFailed(e instanceof NegotiationException.NotSupported ? "not_supported" : "malformed");
            failNegotiation(e);
            return;
        }
        if (out.isReadable() && !outbound && !session.mayReply(NEGOTIATION_ANSWER)) {
            // an answer to the peer's proposal is a reply: on a connection that cannot take it the stream ends
            // unanswered (a reset would be one more reply); the peer's negotiation times out
            out.release();
            finish(new NegotiationException("the connection to " + remotePeer() + " could not take the answer"));
            return;
        }
        if (out.isReadable()) {
            sendData(out, null);
            session.flush();
        } else {
            out.release();
        }
        if (selected != null) {
            negotiated(selected);
        }
    }

    private void negotiated(String selected) {
        negotiationDeadline.cancel(false);
        negotiation = null;
        if (!outbound) {
            ProtocolHandler protocolHandler = session.protocols.handler(selected);
            try {
                handler = protocolHandler == null ? null : protocolHandler.onStream(this);
            } catch (RuntimeException e) {
                log.atWarn().addKeyValue("protocol", String.valueOf(selected))
                        .addKeyValue("peer", String.valueOf(remotePeer())).setCause(e)
                        .log("handler failed to accept a stream");
            }
            if (ended) {
                // the protocol handler refused the stream by resetting it as it accepted it: no handler is called
                handler = null;
                return;
            }
            if (handler == null) {
                protocol = selected;
                reset();
                return;
            }
        }
        protocol = selected;
        session.events.streamOpened(this);
        ByteBuf leftover = negotiationInput.isReadable() ? negotiationInput.readRetainedSlice(negotiationInput.readableBytes()) : null;
        negotiationInput.release();
        negotiationInput = null;
        try {
            handler.onOpen(this);
        } catch (RuntimeException e) {
            ReferenceCountUtil.release(leftover);
            handlerFailed("onOpen", e);
            return;
        }
        if (opened != null) {
            opened.trySuccess(this);
        }
        if (leftover != null) {
            receive(leftover);
        } else {
            drain();
        }
    }

    private void failNegotiation(NegotiationException cause) {
        if (opened != null) {
            opened.tryFailure(cause);
        }
        if (!ended) {
            sendReset();
            session.flush();
            finish(cause);
        }
    }

    private void drain() {
        if (delivering) {
            return;
        }
        delivering = true;
        try {
            while (!paused && !ended) {
                ByteBuf next = inbound.poll();
                if (next == null) {
                    break;
                }
                int size = next.readableBytes();
                inboundBytes -= size;
                try {
                    handler.onData(this, next);
                } catch (RuntimeException e) {
                    handlerFailed("onData", e);
                    return;
                }
                if (!ended) {
                    consumed(size);
                }
            }
            if (!ended) {
                onInboundBuffered(inboundBytes);
            }
            if (!paused && !ended && inbound.isEmpty() && remoteClosed && !remoteClosedDelivered) {
                remoteClosedDelivered = true;
                try {
                    handler.onRemoteClosed(this);
                } catch (RuntimeException e) {
                    handlerFailed("onRemoteClosed", e);
                    return;
                }
                maybeFinish();
            }
        } finally {
            delivering = false;
        }
    }

    private void handlerFailed(String callback, RuntimeException e) {
        log.atWarn().addKeyValue("protocol", String.valueOf(protocol))
                .addKeyValue("peer", String.valueOf(remotePeer())).addKeyValue("callback", String.valueOf(callback))
                .setCause(e).log("handler failed; resetting the stream");
        if (!ended) {
            sendReset();
            session.flush();
            finish(new P2pException.StreamReset("the stream's handler failed: " + e));
        }
    }

    /** Both sides closed and everything was written and delivered: the stream is over. */
    final void maybeFinish() {
        if (!ended && localClosed && remoteClosedDelivered && pendingWriteBytes() == 0) {
            finish(null);
        }
    }

    private void finish(Throwable cause) {
        if (ended) {
            return;
        }
        ended = true;
        if (negotiationDeadline != null) {
            negotiationDeadline.cancel(false);
        }
        ByteBuf queued;
        while ((queued = inbound.poll()) != null) {
            queued.release();
        }
        inboundBytes = 0;
        if (negotiationInput != null) {
            negotiationInput.release();
            negotiationInput = null;
        }
        Throwable failure = cause != null ? cause : new P2pException.StreamReset("stream closed");
        releaseWrites(failure);
        onFinished();
        if (opened != null) {
            opened.tryFailure(failure);
        }
        session.removed(this);
        if (protocol != null && handler != null) {
            session.events.streamClosed(this);
            try {
                handler.onClosed(this, cause);
            } catch (RuntimeException e) {
                log.atWarn().addKeyValue("protocol", String.valueOf(protocol))
                        .addKeyValue("peer", String.valueOf(remotePeer())).setCause(e)
                        .log("handler failed in onClosed");
            }
        }
    }

    // ---- Stream

    @Override
    public final String protocol() {
        return protocol;
    }

    @Override
    public final PeerId remotePeer() {
        return session.connection == null ? null : session.connection.remotePeer();
    }

    @Override
    public final Connection connection() {
        return session.connection;
    }

    @Override
    public final boolean isOutbound() {
        return outbound;
    }

    @Override
    public final EventExecutor executor() {
        return session.ctx.executor();
    }

    @Override
    public final ByteBufAllocator alloc() {
        return session.ctx.alloc();
    }

    @Override
    public final Future<Void> write(ByteBuf data) {
        Promise<Void> promise = executor().newPromise();
        if (executor().inEventLoop()) {
            write0(data, promise);
        } else {
            executor().execute(() -> write0(data, promise));
        }
        return promise;
    }

    private void write0(ByteBuf data, Promise<Void> promise) {
        if (ended || localClosed) {
            data.release();
            promise.tryFailure(new P2pException.StreamReset("the stream is closed for writing"));
            return;
        }
        sendData(data, promise);
        session.flush();
        checkWritability();
    }

    @Override
    public final boolean isWritable() {
        return !ended && !localClosed && pendingWriteBytes() < session.limits.streamWriteBufferBytes()
                && session.ctx.channel().isWritable();
    }

    @Override
    public final long queuedBytes() {
        return pendingWriteBytes();
    }

    @Override
    public final void pauseReading() {
        onLoop(() -> paused = true);
    }

    @Override
    public final void resumeReading() {
        onLoop(() -> {
            if (paused) {
                paused = false;
                drain();
                session.flush();
            }
        });
    }

    final boolean paused() {
        return paused;
    }

    @Override
    public final void closeWrite() {
        onLoop(() -> {
            if (ended || localClosed) {
                return;
            }
            localClosed = true;
            sendCloseWrite();
            session.flush();
            maybeFinish();
        });
    }

    @Override
    public final void reset() {
        onLoop(() -> {
            if (!ended) {
                sendReset();
                session.flush();
                finish(new P2pException.StreamReset("stream reset locally"));
            }
        });
    }

    @Override
    public final boolean isOpen() {
        return !ended;
    }

    private void onLoop(Runnable action) {
        if (executor().inEventLoop()) {
            action.run();
        } else {
            executor().execute(action);
        }
    }

    @Override
    public String toString() {
        return (outbound ? "outbound" : "inbound") + " stream " + id + " " + (protocol == null ? "(negotiating)" : protocol)
                + " with " + remotePeer();
    }
}
