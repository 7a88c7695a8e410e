package io.wakurelay.p2p.ws;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * Refuses a TLS client's renegotiation on the {@code /wss} listener (issue 43, N5; ADR 0086): the JDK's TLS server
 * accepts client-initiated renegotiation in TLS 1.2, and each full renegotiation costs the server a private-key
 * operation (375 a second from one connection took 81 % of a core). Go's TLS server, go-libp2p's, never renegotiates;
 * nginx closes such a connection; so does this handler.
 *
 * <p>It sits between the socket and the {@code SslHandler} and reads only the 5-byte headers of the TLS records that
 * go by, never copying them. A TLS 1.2 client sends ChangeCipherSpec and then exactly one handshake record, its
 * Finished, before application data; a handshake record after that is a new ClientHello, a renegotiation. (TLS 1.3
 * sends everything after its ServerHello as application-data records; its optional ChangeCipherSpec may precede a
 * second ClientHello after a HelloRetryRequest, the one handshake record allowed.) Such a record is dropped unread and
 * the connection ends with {@link WebSocketException#TLS_RENEGOTIATION}, counted. Bytes that are not TLS records end
 * the watch: the {@code SslHandler} refuses them itself.
 */
final class TlsRenegotiationGuard extends ChannelInboundHandlerAdapter {
    private static final int CHANGE_CIPHER_SPEC = 20;
    private static final int HANDSHAKE = 22;
    private static final int APPLICATION_DATA = 23;
    private static final int HEADER = 5;

    private final WebSocketEvents events;
    private final byte[] header = new byte[HEADER];
    private int headerBytes;
    private int bodyLeft;
    private boolean changedCipherSpec;
    private int handshakeRecordsSince;
    private boolean refused;

    TlsRenegotiationGuard(WebSocketEvents events) {
        this.events = events;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof ByteBuf in && renegotiates(in)) {
            refused = true;
            in.release();
            events.renegotiationRefused();
            ctx.fireExceptionCaught(new WebSocketException(WebSocketException.TLS_RENEGOTIATION,
                    "a TLS renegotiation from " + ctx.channel().remoteAddress() + ": refused"));
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** Reads the record headers in {@code in} (without moving its reader index); true at a renegotiation. */
    private boolean renegotiates(ByteBuf in) {
        int i = in.readerIndex();
        int end = in.writerIndex();
        while (i < end) {
            if (bodyLeft > 0) {
                int skip = Math.min(bodyLeft, end - i);
                bodyLeft -= skip;
                i += skip;
                continue;
            }
            header[headerBytes++] = in.getByte(i++);
            if (headerBytes < HEADER) {
                continue;
            }
            headerBytes = 0;
            int type = header[0] & 0xff;
            if (type < CHANGE_CIPHER_SPEC || type > APPLICATION_DATA + 1) {
                bodyLeft = Integer.MAX_VALUE; // not TLS records: the SslHandler ends it
                return false;
            }
            bodyLeft = ((header[3] & 0xff) << 8) | (header[4] & 0xff);
            if (type == CHANGE_CIPHER_SPEC) {
                changedCipherSpec = true;
            } else if (type == HANDSHAKE && changedCipherSpec && ++handshakeRecordsSince > 1) {
                return true;
            }
        }
        return false;
    }
}
