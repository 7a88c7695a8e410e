package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.p2p.wire.WireFormatException;

import java.nio.charset.StandardCharsets;

/**
 * {@code /mplex/6.7.0} (libp2p/specs mplex/README.md): frames {@code uvarint(id << 3 | flag) ‖ uvarint(length) ‖ data},
 * at most 1 MiB of data each. Both sides number their own streams, so a stream is known by its id and by who opened
 * it, which the flag tells.
 *
 * <p>mplex has no flow control. A paused stream buffers what arrives; past half of
 * {@link MuxerLimits#mplexMaxBufferedBytes()} the session stops reading the connection (TCP backpressure for every
 * stream of the connection, as the spec allows) until the stream drains, and a stream that still reaches the whole
 * bound is reset.
 */
public final class MplexSession extends MuxerSession {
    public static final String PROTOCOL_ID = "/mplex/6.7.0";
    public static final int MAX_FRAME_BYTES = 1 << 20;
    static final int NEW_STREAM = 0;
    static final int MESSAGE_RECEIVER = 1;
    static final int MESSAGE_INITIATOR = 2;
    static final int CLOSE_RECEIVER = 3;
    static final int CLOSE_INITIATOR = 4;
    static final int RESET_RECEIVER = 5;
    static final int RESET_INITIATOR = 6;
    private static final long MAX_STREAM_ID = (1L << 60) - 1;
    private static final int MAX_HEADER_BYTES = 2 * Uvarint.MAX_BYTES;

    private final byte[] header = new byte[MAX_HEADER_BYTES];
    private int headerFill;
    private long nextStreamId;
    private MplexStream dataStream;
    private long dataRemaining;
    private int streamsOverSoftBound;

    public MplexSession(boolean initiator, ProtocolRegistry protocols, MuxerLimits limits, MuxerEvents events) {
        super(initiator, protocols, limits, events);
    }

    @Override
    public String protocolId() {
        return PROTOCOL_ID;
    }

    @Override
    long key(MuxedStream stream) {
        return key(stream.id, stream.isOutbound());
    }

    private static long key(long id, boolean openedHere) {
        return (id << 1) | (openedHere ? 1 : 0);
    }

    @Override
    MuxedStream newOutboundStream() {
        if (nextStreamId > MAX_STREAM_ID) {
            return null;
        }
        MplexStream stream = new MplexStream(this, nextStreamId++, true);
        ByteBuf name = Unpooled.copiedBuffer(Long.toString(stream.id), StandardCharsets.US_ASCII);
        writeFrame(stream.id, NEW_STREAM, name, null);
        return stream;
    }

    /** Writes one frame; {@code data} (ownership passes) may be null for an empty frame. */
    void writeFrame(long id, int flag, ByteBuf data, io.netty.util.concurrent.Promise<Void> promise) {
        int length = data == null ? 0 : data.readableBytes();
        ByteBuf h = ctx.alloc().buffer(MAX_HEADER_BYTES);
        Uvarint.write(h, (id << 3) | flag);
        Uvarint.write(h, length);
        write(h, data == null ? promise : null);
        if (data != null) {
            write(data, promise);
        }
    }

    @Override
    void decode(ByteBuf in) {
        while (in.isReadable() && !isClosed()) {
            if (dataRemaining > 0) {
                int n = (int) Math.min(dataRemaining, in.readableBytes());
                dataRemaining -= n;
                if (dataStream != null) {
                    dataStream.receive(in.readRetainedSlice(n));
                } else {
                    in.skipBytes(n);
                }
            } else if (headerFill == 0 && readHeader(in)) {
                continue;
            } else {
                header[headerFill++] = in.readByte();
                ByteBuf buffered = Unpooled.wrappedBuffer(header, 0, headerFill);
                if (readHeader(buffered)) {
                    headerFill = 0;
                } else if (headerFill == MAX_HEADER_BYTES) {
                    throw new MuxerException("mplex_malformed_header", "mplex header longer than " + MAX_HEADER_BYTES + " bytes");
                }
            }
        }
    }

    /** Reads a whole header from {@code in} and acts on it; false (nothing consumed) when it is not all there. */
    private boolean readHeader(ByteBuf in) {
        int start = in.readerIndex();
        long headerValue;
        int length;
        try {
            headerValue = Uvarint.read(in);
            length = headerValue == Uvarint.INCOMPLETE ? -1 : Uvarint.readInt(in, MAX_FRAME_BYTES, "mplex frame");
        } catch (WireFormatException e) {
            throw new MuxerException(e.getMessage().contains("exceeds") ? "mplex_frame_too_large" : "mplex_malformed_header",
                    e.getMessage());
        }
        if (length < 0) {
            in.readerIndex(start);
            return false;
        }
        onFrame((int) (headerValue & 7), headerValue >>> 3, length);
        return true;
    }

    private void onFrame(int flag, long id, int length) {
        MplexStream target = switch (flag) {
            case NEW_STREAM -> {
                openedByPeer(id);
                yield null;
            }
            case MESSAGE_INITIATOR -> (MplexStream) stream(key(id, false));
            case MESSAGE_RECEIVER -> (MplexStream) stream(key(id, true));
            case CLOSE_INITIATOR, CLOSE_RECEIVER, RESET_INITIATOR, RESET_RECEIVER -> {
                MplexStream s = (MplexStream) stream(key(id, flag == CLOSE_RECEIVER || flag == RESET_RECEIVER));
                if (s != null) {
                    if (flag == CLOSE_INITIATOR || flag == CLOSE_RECEIVER) {
                        s.receiveClose();
                    } else {
                        s.receiveReset();
                    }
                }
                yield null;
            }
            default -> throw new MuxerException("mplex_bad_flag", "mplex frame with unknown flag " + flag);
        };
        dataStream = target;
        dataRemaining = length;
    }

    private void openedByPeer(long id) {
        if (stream(key(id, false)) != null) {
            throw new MuxerException("mplex_duplicate_stream", "the peer opened stream " + id + " twice");
        }
        if (!admitInbound()) {
            if (mayReply(STREAM_REFUSAL)) {
                writeFrame(id, RESET_RECEIVER, null, null);
            }
            return;
        }
        acceptInbound(new MplexStream(this, id, false));
    }

    /** A stream crossed the soft bound of buffered bytes (+1) or came back under it (-1). */
    void overSoftBound(int change) {
        streamsOverSoftBound += change;
        if (streamsOverSoftBound > 0) {
            readPauses.hold(ReadPauses.Reason.STREAM_BUFFERED);
        } else {
            readPauses.release(ReadPauses.Reason.STREAM_BUFFERED);
        }
    }
}
