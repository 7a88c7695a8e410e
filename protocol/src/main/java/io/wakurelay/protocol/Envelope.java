package io.wakurelay.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

/**
 * One accepted message, decoded once and hashed once: the immutable view that relay fan-out, local
 * subscribers and the archive all share.
 *
 * <p>The envelope owns one reference to the buffer its message bytes live in (for a received message, the
 * decrypted RPC it arrived in, often a composite of several Noise frames). The message view and the message
 * bytes alias that memory, so they are valid only while the envelope is referenced: a consumer that keeps it
 * beyond the call it got it in {@link #retain()}s it and {@link #release()}s it exactly once when done.
 */
public final class Envelope implements ReferenceCounted {
    private final String pubsubTopic;
    private final WakuMessageView message;
    private final ByteBuf messageBytes;
    private final MessageHash hash;
    private final long receivedAtNanos;
    private final ByteBuf owner;

    Envelope(String pubsubTopic, WakuMessageView message, ByteBuf messageBytes, MessageHash hash,
             long receivedAtNanos, ByteBuf owner) {
        this.pubsubTopic = pubsubTopic;
        this.message = message;
        this.messageBytes = messageBytes;
        this.hash = hash;
        this.receivedAtNanos = receivedAtNanos;
        this.owner = owner;
    }

    public String pubsubTopic() {
        return pubsubTopic;
    }

    /** The decoded message; its bytes fields alias the owner. */
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

    /**
     * The WakuMessage's bytes exactly as received, aliasing the owning buffer (a duplicate: indexes are yours). It
     * may span several components of a composite buffer: read it with {@code nioBuffers()} or {@code getBytes}.
     */
    public ByteBuf messageBytes() {
        return messageBytes.duplicate();
    }

    /**
     * The bytes this envelope keeps alive while it is retained: the whole buffer it owns a reference to (for a received
     * message, the RPC it arrived in), which may be larger than {@link #messageSize()}. A consumer that keeps envelopes
     * bounds its memory by this.
     */
    public int retainedBytes() {
        return Math.max(owner.capacity(), messageBytes.readableBytes());
    }

    public int messageSize() {
        return messageBytes.readableBytes();
    }

    @Override
    public int refCnt() {
        return owner.refCnt();
    }

    @Override
    public Envelope retain() {
        owner.retain();
        return this;
    }

    @Override
    public Envelope retain(int increment) {
        owner.retain(increment);
        return this;
    }

    @Override
    public Envelope touch() {
        owner.touch();
        return this;
    }

    @Override
    public Envelope touch(Object hint) {
        owner.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return owner.release();
    }

    @Override
    public boolean release(int decrement) {
        return owner.release(decrement);
    }

    @Override
    public String toString() {
        return "Envelope{" + hash + " on " + pubsubTopic + ", " + messageSize() + " bytes}";
    }
}
