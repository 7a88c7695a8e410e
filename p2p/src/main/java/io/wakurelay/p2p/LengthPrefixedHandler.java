package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.wire.LengthPrefixedReader;
import io.wakurelay.p2p.wire.WireFormatException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@code uvarint(length) ‖ message} messages a peer writes on a stream ({@link LengthPrefixedReader}) and
 * hands each to a {@link MessageConsumer} until it wants no more; what comes after is released unread. A length
 * prefix that is malformed or above {@code maxLength} resets the stream. When the peer closes its side, this side
 * closes its own. For protocols that take whole messages and never pause their reading: identify, metadata, and
 * the peers tests build by hand.
 */
public class LengthPrefixedHandler implements StreamHandler {
    private static final Logger log = LoggerFactory.getLogger(LengthPrefixedHandler.class);

    /** Takes one message; called on the stream's event loop. */
    @FunctionalInterface
    public interface MessageConsumer {
        /**
         * @param message released when this returns
         * @return true to read the next message, false when this one was the last
         */
        boolean accept(Stream stream, ByteBuf message);
    }

    private final int maxLength;
    private final MessageConsumer consumer;
    private LengthPrefixedReader reader;
    private boolean done;

    public LengthPrefixedHandler(int maxLength, MessageConsumer consumer) {
        this.maxLength = maxLength;
        this.consumer = consumer;
    }

    @Override
    public void onOpen(Stream stream) {
        reader = new LengthPrefixedReader(stream.alloc(), maxLength);
    }

    @Override
    public final void onData(Stream stream, ByteBuf data) {
        if (done) {
            data.release();
            return;
        }
        reader.add(data);
        while (!done) {
            ByteBuf message;
            try {
                message = reader.next();
            } catch (WireFormatException e) {
                log.atDebug().addKeyValue("protocol", String.valueOf(stream.protocol()))
                        .addKeyValue("peer", String.valueOf(stream.remotePeer())).addKeyValue("reason", e.getMessage())
                        .log("request refused");
                stream.reset();
                return;
            }
            if (message == null) {
                return;
            }
            try {
                done = !consumer.accept(stream, message);
            } finally {
                message.release();
                if (done) {
                    reader.close();
                }
            }
        }
    }

    @Override
    public void onRemoteClosed(Stream stream) {
        stream.closeWrite();
    }

    @Override
    public final void onClosed(Stream stream, Throwable cause) {
        if (reader != null) {
            reader.close();
        }
    }
}
