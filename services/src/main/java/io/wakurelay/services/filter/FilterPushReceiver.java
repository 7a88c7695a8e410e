package io.wakurelay.services.filter;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.p2p.wire.WireFormatException;
import io.wakurelay.services.proto.MessagePush;

/**
 * One inbound {@value FilterConfig#PUSH_PROTOCOL_ID} stream: a service node writes one length-prefixed
 * {@code MessagePush} per message on it, as many as it likes (nwaku's client reads until the stream ends; so does
 * this). Each push is read whole up to {@code maxPushBytes}; a larger one, or one that does not parse, resets the
 * stream (counted). Runs on the stream's event loop.
 */
final class FilterPushReceiver implements StreamHandler {
    private static final int MAX_COMPONENTS = 64;

    /** Where a whole push goes. */
    interface Pushes {
        void pushed(Stream stream, MessagePush push);

        /** A push that was too large or did not parse; {@code outcome} is its metric label. */
        void refused(Stream stream, String outcome, String why);
    }

    private final int maxPushBytes;
    private final Pushes pushes;
    private CompositeByteBuf cumulation;
    private boolean failed;

    FilterPushReceiver(int maxPushBytes, Pushes pushes) {
        this.maxPushBytes = maxPushBytes;
        this.pushes = pushes;
    }

    @Override
    public void onData(Stream stream, ByteBuf data) {
        if (failed) {
            data.release();
            return;
        }
        if (cumulation == null) {
            cumulation = stream.alloc().compositeBuffer(MAX_COMPONENTS);
        }
        cumulation.addComponent(true, data);
        while (cumulation.isReadable()) {
            int start = cumulation.readerIndex();
            long length;
            try {
                length = Uvarint.read(cumulation);
            } catch (WireFormatException e) {
                fail(stream, FilterClientMetrics.MALFORMED, "malformed length prefix: " + e.getMessage());
                return;
            }
            if (length == Uvarint.INCOMPLETE) {
                break;
            }
            if (length > maxPushBytes) {
                fail(stream, FilterClientMetrics.TOO_LARGE, "a push of " + length + " bytes, the limit is " + maxPushBytes);
                return;
            }
            if (cumulation.readableBytes() < length) {
                cumulation.readerIndex(start); // the prefix is read again once the rest is here
                break;
            }
            ByteBuf frame = cumulation.readSlice((int) length);
            MessagePush push;
            try {
                push = MessagePush.parseFrom(frame.nioBuffer());
            } catch (InvalidProtocolBufferException e) {
                fail(stream, FilterClientMetrics.MALFORMED, "a push that is not a MessagePush: " + e.getMessage());
                return;
            }
            pushes.pushed(stream, push);
        }
        cumulation.discardReadComponents();
    }

    private void fail(Stream stream, String outcome, String why) {
        failed = true;
        release();
        pushes.refused(stream, outcome, why);
        stream.reset();
    }

    @Override
    public void onRemoteClosed(Stream stream) {
        stream.closeWrite(); // the service node is done: so is this side (nothing is ever written back)
    }

    @Override
    public void onClosed(Stream stream, Throwable cause) {
        release();
    }

    private void release() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }
}
