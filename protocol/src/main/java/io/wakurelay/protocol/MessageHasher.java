package io.wakurelay.protocol;

import com.google.protobuf.ByteOutput;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.netty.buffer.ByteBuf;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The deterministic message hash of DESIGN.md and RFC 14/WAKU2-MESSAGE:
 * {@code sha256(pubsub_topic ‖ payload ‖ content_topic ‖ meta ‖ timestamp)}, strings as UTF-8, absent
 * meta adding no bytes, timestamp as 8 bytes big-endian two's complement (absent counts as 0).
 *
 * <p>Fields are fed to the digest where they live, without copying them into new arrays. Every call is
 * counted in {@link PathCounters#hashes()}.
 */
public final class MessageHasher {
    private static final ThreadLocal<Digest> DIGEST = ThreadLocal.withInitial(Digest::new);

    private final PathCounters counters;

    public MessageHasher(PathCounters counters) {
        this.counters = counters;
    }

    /** The hash of a decoded (aliasing) message. */
    public MessageHash hash(String pubsubTopic, WakuMessageView message) {
        Digest d = DIGEST.get();
        d.update(pubsubTopic.getBytes(StandardCharsets.UTF_8));
        d.update(message.payload());
        d.update(message.contentTopicSlice());
        if (message.hasMeta()) {
            d.update(message.meta());
        }
        return finish(d, message.timestamp());
    }

    /** The hash of a message built in memory (clients, tools, tests). */
    public MessageHash hash(String pubsubTopic, WakuMessage message) {
        Digest d = DIGEST.get();
        d.update(pubsubTopic.getBytes(StandardCharsets.UTF_8));
        d.update(message.getPayload());
        d.update(message.getContentTopicBytes());
        if (message.hasMeta()) {
            d.update(message.getMeta());
        }
        return finish(d, message.getTimestamp());
    }

    private MessageHash finish(Digest d, long timestamp) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            d.digest.update((byte) (timestamp >>> shift));
        }
        counters.hashed();
        return MessageHash.wrap(d.digest.digest());
    }

    /** One SHA-256 per thread, fed from heap arrays, direct buffers or ByteStrings without copies. */
    private static final class Digest extends ByteOutput {
        final MessageDigest digest;

        Digest() {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform provides SHA-256", e);
            }
        }

        void update(byte[] bytes) {
            digest.update(bytes);
        }

        void update(ByteBuf bytes) {
            if (bytes.hasArray()) {
                digest.update(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
            } else if (bytes.nioBufferCount() == 1) {
                digest.update(bytes.nioBuffer());
            } else {
                for (ByteBuffer part : bytes.nioBuffers()) {
                    digest.update(part);
                }
            }
        }

        void update(ByteString bytes) {
            try {
                UnsafeByteOperations.unsafeWriteTo(bytes, this);
            } catch (IOException e) {
                throw new IllegalStateException("a digest does not fail on update", e);
            }
        }

        @Override
        public void write(byte value) {
            digest.update(value);
        }

        @Override
        public void write(byte[] value, int offset, int length) {
            digest.update(value, offset, length);
        }

        @Override
        public void writeLazy(byte[] value, int offset, int length) {
            digest.update(value, offset, length);
        }

        @Override
        public void write(ByteBuffer value) {
            digest.update(value);
        }

        @Override
        public void writeLazy(ByteBuffer value) {
            digest.update(value);
        }
    }
}
