package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Promise;

/**
 * {@code /yamux/1.0.0} (libp2p/specs yamux/README.md): 12-byte frame headers, per-stream credit windows, SYN/ACK/FIN/RST,
 * ping and go-away. The dialler of the connection uses odd stream ids, the listener even ones.
 *
 * <p>Flow control is what bounds memory here: a stream grants the peer {@link MuxerLimits#yamuxReceiveWindow()} bytes
 * of credit and renews it only as its handler takes the bytes, so a paused reader holds at most one window, and a
 * peer that sends past its credit breaks the protocol (the connection is closed). Outbound data waits in its
 * stream while the peer's credit is used up.
 *
 * <p>A ping is answered as go-yamux answers it: at most one pong waits to be written; a ping that arrives while one
 * waits, or while the connection is unwritable, goes unanswered ({@link MuxerEvents#replyDropped}). A peer that
 * pings without reading the pongs so gets at most one pong queued, however fast it pings.
 */
public final class YamuxSession extends MuxerSession {
    public static final String PROTOCOL_ID = "/yamux/1.0.0";
    static final int HEADER_BYTES = 12;
    static final int TYPE_DATA = 0;
    static final int TYPE_WINDOW_UPDATE = 1;
    static final int TYPE_PING = 2;
    static final int TYPE_GO_AWAY = 3;
    static final int SYN = 1;
    static final int ACK = 2;
    static final int FIN = 4;
    static final int RST = 8;
    /** Data per frame: a frame and its header fill one Noise message (65,535 bytes less the 16-byte tag). */
    static final int MAX_DATA_FRAME = 65_519 - HEADER_BYTES;
    private static final long MAX_WINDOW = 0xFFFF_FFFFL;

    private final byte[] header = new byte[HEADER_BYTES];
    private int headerFill;
    private long nextStreamId;
    private boolean goAwayReceived;
    private YamuxStream dataStream;
    private long dataRemaining;
    private int dataFlags;
    /** A pong was written and has not reached the socket yet. */
    private boolean pongPending;

    static final String PONG = "yamux_pong";

    public YamuxSession(boolean initiator, ProtocolRegistry protocols, MuxerLimits limits, MuxerEvents events) {
        super(initiator, protocols, limits, events);
        this.nextStreamId = initiator ? 1 : 2;
    }

    @Override
    public String protocolId() {
        return PROTOCOL_ID;
    }

    @Override
    long key(MuxedStream stream) {
        return stream.id;
    }

    @Override
    MuxedStream newOutboundStream() {
        if (goAwayReceived || nextStreamId > MAX_WINDOW) {
            return null;
        }
        YamuxStream stream = new YamuxStream(this, nextStreamId, true);
        nextStreamId += 2;
        writeHeader(TYPE_WINDOW_UPDATE, SYN, stream.id, extraCredit());
        return stream;
    }

    /** What a new stream grants beyond the spec's initial window, sent with its SYN or ACK. */
    private long extraCredit() {
        return limits.yamuxReceiveWindow() - (long) MuxerLimits.YAMUX_INITIAL_WINDOW;
    }

    @Override
    void sendGoAway() {
        writeHeader(TYPE_GO_AWAY, 0, 0, 0);
    }

    void writeHeader(int type, int flags, long streamId, long length) {
        write(header(type, flags, streamId, length), null);
    }

    /** Gives the peer {@code delta} more bytes of credit on a stream (never pauses reading: see writeCredit). */
    void writeWindowUpdate(long streamId, long delta) {
        writeCredit(header(TYPE_WINDOW_UPDATE, 0, streamId, delta));
    }

    private ByteBuf header(int type, int flags, long streamId, long length) {
        ByteBuf h = ctx.alloc().buffer(HEADER_BYTES, HEADER_BYTES);
        h.writeByte(0);
        h.writeByte(type);
        h.writeShort(flags);
        h.writeInt((int) streamId);
        h.writeInt((int) length);
        return h;
    }

    @Override
    void decode(ByteBuf in) {
        while (in.isReadable() && !isClosed()) {
            if (dataRemaining > 0) {
                readData(in);
            } else {
                // one copy of the 12 bytes, whole or in parts, rather than five reads of the buffer: a flood of
                // small frames (pings) costs one buffer access each
                int n = Math.min(HEADER_BYTES - headerFill, in.readableBytes());
                in.readBytes(header, headerFill, n);
                headerFill += n;
                if (headerFill == HEADER_BYTES) {
                    headerFill = 0;
                    onHeader(header[0] & 0xFF, header[1] & 0xFF, ((header[2] & 0xFF) << 8) | (header[3] & 0xFF),
                            uint32(header, 4), uint32(header, 8));
                }
            }
        }
    }

    private static long uint32(byte[] b, int i) {
        return ((long) (b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8) | (b[i + 3] & 0xFF);
    }

    private void readData(ByteBuf in) {
        int n = (int) Math.min(dataRemaining, in.readableBytes());
        dataRemaining -= n;
        if (dataStream != null) {
            dataStream.receive(in.readRetainedSlice(n));
        } else {
            in.skipBytes(n);
        }
        if (dataRemaining == 0) {
            YamuxStream stream = dataStream;
            dataStream = null;
            if (stream != null) {
                applyCloseFlags(stream, dataFlags);
            }
        }
    }

    private void onHeader(int version, int type, int flags, long streamId, long length) {
        if (version != 0) {
            throw new MuxerException("yamux_bad_version", "yamux frame of version " + version);
        }
        switch (type) {
            case TYPE_DATA -> onData(flags, streamId, length);
            case TYPE_WINDOW_UPDATE -> onWindowUpdate(flags, streamId, length);
            case TYPE_PING -> onPing(flags, streamId, length);
            case TYPE_GO_AWAY -> goAwayReceived = true;
            default -> throw new MuxerException("yamux_bad_type", "yamux frame of unknown type " + type);
        }
    }

    private void onData(int flags, long streamId, long length) {
        YamuxStream stream = resolve(flags, streamId);
        if (stream != null && (flags & RST) == 0 && length > 0) {
            if (length > stream.receiveWindow) {
                throw new MuxerException("yamux_window_exceeded", "the peer sent " + length + " bytes on stream "
                        + streamId + " with " + stream.receiveWindow + " bytes of credit");
            }
            stream.receiveWindow -= length;
        }
        if (length > 0) {
            dataStream = (flags & RST) == 0 ? stream : null;
            dataRemaining = length;
            dataFlags = flags;
            if (stream != null && (flags & RST) != 0) {
                stream.receiveReset();
            }
        } else if (stream != null) {
            applyCloseFlags(stream, flags);
        }
    }

    private void onWindowUpdate(int flags, long streamId, long delta) {
        YamuxStream stream = resolve(flags, streamId);
        if (stream == null) {
            return;
        }
        if ((flags & RST) == 0 && delta > 0) {
            if (stream.sendWindow + delta > MAX_WINDOW) {
                throw new MuxerException("yamux_window_overflow", "window update takes stream " + streamId
                        + "'s window past 2^32 - 1");
            }
            stream.sendWindow += delta;
            stream.drainWrites();
        }
        applyCloseFlags(stream, flags);
    }

    private void applyCloseFlags(YamuxStream stream, int flags) {
        if ((flags & RST) != 0) {
            stream.receiveReset();
        } else if ((flags & FIN) != 0) {
            stream.receiveClose();
        }
    }

    private void onPing(int flags, long streamId, long opaque) {
        if (streamId != 0) {
            throw new MuxerException("yamux_bad_ping", "yamux ping on stream " + streamId);
        }
        if ((flags & SYN) == 0) {
            return; // an answer to a ping of ours: this host pings with /ipfs/ping/1.0.0, never with yamux pings
        }
        if (pongPending) {
            events.replyDropped(PONG);
            return;
        }
        if (mayReply(PONG)) {
            pongPending = true;
            Promise<Void> written = ctx.executor().newPromise();
            written.addListener(f -> pongPending = false);
            write(header(TYPE_PING, ACK, 0, opaque), written);
        }
    }

    /** The stream a frame is for: a new one for SYN, else a known one, or null for one that is gone. */
    private YamuxStream resolve(int flags, long streamId) {
        if ((flags & SYN) == 0) {
            return (YamuxStream) stream(streamId);
        }
        boolean peerIsInitiator = !initiator;
        if (streamId == 0 || (streamId % 2 == 1) != peerIsInitiator) {
            throw new MuxerException("yamux_bad_stream_id", "the peer opened stream " + streamId
                    + ", an id of the other side (or the session's)");
        }
        if (stream(streamId) != null) {
            throw new MuxerException("yamux_duplicate_stream", "the peer opened stream " + streamId + " twice");
        }
        if ((flags & RST) != 0) {
            return null;
        }
        if (!admitInbound()) {
            // go-yamux refuses with the reset alone, without acknowledging the stream first
            if (mayReply(STREAM_REFUSAL)) {
                writeHeader(TYPE_WINDOW_UPDATE, RST, streamId, 0);
            }
            return null;
        }
        YamuxStream stream = new YamuxStream(this, streamId, false);
        writeHeader(TYPE_WINDOW_UPDATE, ACK, streamId, extraCredit());
        acceptInbound(stream);
        return stream;
    }
}
