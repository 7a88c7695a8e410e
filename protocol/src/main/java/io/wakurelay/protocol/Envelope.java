package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

import java.nio.ByteBuffer;

/**
 * One accepted message, decoded once and hashed once: the immutable view that relay fan-out, local
 * subscribers and the archive all share.
 *
 * <p>The envelope owns one reference to the wire frame it was decoded from (length prefix included). The
 * message view and the message bytes alias that frame's memory, so they are valid only while the envelope
 * is referenced: a consumer that keeps it beyond the call it got it in {@link #retain()}s it and
 * {@link #release()}s it exactly once when done.
 */
public final class Envelope implements ReferenceCounted {
    private final String pubsubTopic;
    private final WakuMessageView message;
    private final ByteBuf messageBytes;
    private final MessageHash hash;
    private final long receivedAtNanos;
    private final ByteBuf frame;

    Envelope(String pubsubTopic, WakuMessageView message, ByteBuf messageBytes, MessageHash hash,
             long receivedAtNanos, ByteBuf frame) {
        this.pubsubTopic = pubsubTopic;
        this.message = message;
        this.messageBytes = messageBytes;
        this.hash = hash;
        this.receivedAtNanos = receivedAtNanos;
        this.frame = frame;
    }

    public String pubsubTopic() {
        return pubsubTopic;
    }

    /** The decoded message; its bytes fields alias the frame. */
    public WakuMessageView message() {
        return message;
    }

    public MessageHash hash() {
        return hash;
    }

    /** Wall-clock time the node received (or published) the message, Unix nanoseconds. */
    public long receivedAtNanos() {
        return receivedAtNanos;
    }

    /** The timestamp archives index by: the message's own, or the receive time when it has none. */
    public long indexTimestamp() {
        long timestamp = message.timestamp();
        return timestamp != 0 ? timestamp : receivedAtNanos;
    }

    public boolean ephemeral() {
        return message.ephemeral();
    }

    /** The WakuMessage's bytes exactly as received, aliasing the frame (a duplicate: indexes are yours). */
    public ByteBuf messageBytes() {
        return messageBytes.duplicate();
    }

    /** A view of {@link #messageBytes()} as a ByteBuffer (direct when the frame is). */
    public ByteBuffer messageBuffer() {
        return messageBytes.nioBuffer();
    }

    public int messageSize() {
        return messageBytes.readableBytes();
    }

    /**
     * The whole wire frame, length prefix included, for forwarding without re-encoding. The caller gets
     * its own reference (a retained duplicate) and hands it to a channel write, which releases it.
     */
    public ByteBuf retainedFrame() {
        return frame.retainedDuplicate();
    }

    public int frameSize() {
        return frame.readableBytes();
    }

    @Override
    public int refCnt() {
        return frame.refCnt();
    }

    @Override
    public Envelope retain() {
        frame.retain();
        return this;
    }

    @Override
    public Envelope retain(int increment) {
        frame.retain(increment);
        return this;
    }

    @Override
    public Envelope touch() {
        frame.touch();
        return this;
    }

    @Override
    public Envelope touch(Object hint) {
        frame.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return frame.release();
    }

    @Override
    public boolean release(int decrement) {
        return frame.release(decrement);
    }

    @Override
    public String toString() {
        return "Envelope{" + hash + " on " + pubsubTopic + ", " + messageSize() + " bytes}";
    }
}
