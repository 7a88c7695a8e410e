package io.wakurelay.p2p;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.wakurelay.p2p.crypto.KeyFormatException;
import io.wakurelay.p2p.crypto.KeyRefusedException;
import io.wakurelay.p2p.mss.NegotiationException;
import io.wakurelay.p2p.noise.NoiseException;
import io.wakurelay.p2p.noise.PeerIdMismatchException;
import io.wakurelay.p2p.ws.WebSocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The last handler of every connection's pipeline. Until the upgrade is done it holds the deadline of the whole
 * handshake and turns any failure into a {@link HandshakeException} with a counted outcome; afterwards it closes
 * the connection on an error that reaches it, noting why.
 */
final class UpgradeLifecycle extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(UpgradeLifecycle.class);
    /** The handshake outcome of an inbound socket whose slot a newcomer took ({@link ConnectionManager}). */
    static final String EVICTED = "evicted";
    /** The handshake outcome of a peer that proved itself with a key this host refuses ({@link KeyRefusedException}). */
    static final String KEY_REFUSED = "key_refused";
    /** The handshake outcome of a {@code /wss} connection whose TLS handshake failed (an untrusted certificate). */
    static final String TLS_FAILED = "tls_failed";
    /** Fired down a socket's pipeline (from any thread) when a newcomer took its slot: its handshake ends. */
    static final Object EVICTION = new Object() {
        @Override
        public String toString() {
            return "eviction";
        }
    };

    private final Promise<HostConnection> result;
    private final Duration deadline;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timeout;
    private HostConnection connection;

    UpgradeLifecycle(Promise<HostConnection> result, Duration deadline) {
        this.result = result;
        this.deadline = deadline;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        timeout = ctx.executor().schedule(() -> fail(ctx, "timeout", "the handshake did not finish within " + deadline, null),
                deadline.toNanos(), TimeUnit.NANOSECONDS);
    }

    void upgraded(HostConnection connection) {
        this.connection = connection;
        timeout.cancel(false);
        result.trySuccess(connection);
    }

    /**
     * The socket took nothing of what waits for it for too long ({@link WriteStallGuard}): the handshake fails with
     * {@code reason} as its outcome, or the upgraded connection closes with it as its reason. On the event loop.
     */
    void writeStalled(String reason) {
        if (connection == null) {
            fail(ctx, reason, "the peer took none of the bytes waiting for it", null);
        } else {
            connection.noteCloseReason(reason);
            ctx.close();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event != EVICTION) {
            ctx.fireUserEventTriggered(event);
        } else if (connection == null) {
            fail(ctx, EVICTED, "every inbound slot was taken and this socket had been handshaking longest", null);
        }
        // an eviction that arrives after the upgrade: the host saw that the slot was gone and closed it
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (connection == null) {
            fail(ctx, outcome(root), root.getMessage(), root);
            return;
        }
        String reason = root instanceof WebSocketException w ? w.reason() : root instanceof IOException ? "io_error"
                : "protocol_error";
        connection.noteCloseReason(reason);
        log.atDebug().addKeyValue("peer", String.valueOf(connection.remotePeer()))
                .addKeyValue("address", String.valueOf(connection.remoteAddress())).addKeyValue("reason", reason)
                .addKeyValue("error", root.toString()).log("closing a connection");
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (connection == null) {
            fail(ctx, "closed", "the peer closed the connection during the handshake", null);
        }
        ctx.fireChannelInactive();
    }

    private void fail(ChannelHandlerContext ctx, String outcome, String message, Throwable cause) {
        timeout.cancel(false);
        if (result.tryFailure(new HandshakeException(outcome, "handshake with " + ctx.channel().remoteAddress()
                + " failed (" + outcome + "): " + message, cause))) {
            ctx.close();
        }
    }

    private static String outcome(Throwable cause) {
        if (cause instanceof HandshakeException h) {
            return h.outcome();
        }
        if (cause instanceof PeerIdMismatchException) {
            return "wrong_peer_id";
        }
        if (cause instanceof NegotiationException) {
            return "negotiation_failed";
        }
        if (cause instanceof KeyRefusedException || cause.getCause() instanceof KeyRefusedException) {
            return KEY_REFUSED;
        }
        if (cause instanceof NoiseException || cause instanceof KeyFormatException) {
            return "noise_failed";
        }
        if (cause instanceof WebSocketException w) {
            return w.reason();
        }
        if (cause instanceof SSLException) {
            return TLS_FAILED;
        }
        if (cause instanceof IOException) {
            return "io_error";
        }
        return "error";
    }
}
