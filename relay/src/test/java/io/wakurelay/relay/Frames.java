package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeEncoder;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.MessageValidator;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.testkit.TestMessages;

/** Wire frames in pooled direct buffers, as a socket read and the frame decoder would produce them. */
final class Frames {
    private static final EnvelopeEncoder ENCODER =
            new EnvelopeEncoder(new MessageValidator(ProtocolLimits.DEFAULTS, TestMessages::nowNanos), new PathCounters());

    private Frames() {
    }

    /** A Publish frame and the hash of its message. */
    record Encoded(ByteBuf frame, MessageHash hash) {
    }

    static Encoded publish(String topic, WakuMessage message) {
        Envelope envelope = ENCODER.encode(topic, message, PooledByteBufAllocator.DEFAULT);
        try {
            return new Encoded(envelope.retainedFrame(), envelope.hash());
        } finally {
            envelope.release();
        }
    }

    static ByteBuf of(Frame frame) {
        return PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(RawPeer.bytes(frame));
    }

    static ByteBuf of(byte[] bytes) {
        return PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(bytes);
    }
}
