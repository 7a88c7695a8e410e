package io.wakurelay.protocol;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.proto.WakuMessage;

import java.io.IOException;

/**
 * The publish path's one encode: validates a message, writes its WakuMessage bytes straight into a pooled buffer,
 * hashes it once, and returns the same {@link Envelope} view the receive path makes, with no decode: the view's
 * slices are taken at the offsets the encoder wrote the fields to. The relay wraps those bytes in its RPC without
 * copying them.
 *
 * <p>The fields are written in field-number order with proto3 presence rules, which is byte for byte what
 * the generated {@code WakuMessage.writeTo} produces (a test holds it to that).
 */
public final class EnvelopeEncoder {
    private static final int LD = WireFormat.WIRETYPE_LENGTH_DELIMITED;

    private final MessageValidator validator;
    private final MessageHasher hasher;
    private final PathCounters counters;

    public EnvelopeEncoder(MessageValidator validator, PathCounters counters) {
        this.validator = validator;
        this.hasher = new MessageHasher(counters);
        this.counters = counters;
    }

    public MessageValidator validator() {
        return validator;
    }

    /**
     * @return an envelope owning the one reference to a new pooled buffer that holds exactly the message bytes
     * @throws ProtocolViolation when the message breaks a rule
     */
    public Envelope encode(String pubsubTopic, WakuMessage message, ByteBufAllocator allocator) {
        validator.checkPubsubTopic(pubsubTopic);
        int size = message.getSerializedSize();
        validator.checkMessageSize(size);
        long now = validator.nowNanos();
        validator.checkMessage(message, now);

        ByteBuf buffer = allocator.directBuffer(size, size);
        try {
            int start = buffer.writerIndex();
            CodedOutputStream out = CodedOutputStream.newInstance(buffer.nioBuffer(start, size));
            WakuMessageView view = writeMessage(message, out, buffer, start);
            out.flush();
            buffer.writerIndex(start + size);
            counters.encoded();
            MessageHash hash = hasher.hash(pubsubTopic, view);
            return new Envelope(pubsubTopic, view, buffer.slice(start, size), hash, now, buffer);
        } catch (IOException | RuntimeException e) {
            buffer.release();
            throw new IllegalStateException("encoding into a buffer of the computed size failed", e);
        }
    }

    private static WakuMessageView writeMessage(WakuMessage m, CodedOutputStream out, ByteBuf frame, int start) throws IOException {
        ByteBuf payload = Unpooled.EMPTY_BUFFER;
        ByteBuf contentTopic = Unpooled.EMPTY_BUFFER;
        ByteBuf meta = null;
        ByteBuf proof = null;
        if (!m.getPayload().isEmpty()) {
            payload = writeBytes(WakuMessage.PAYLOAD_FIELD_NUMBER, m.getPayload(), out, frame, start);
        }
        if (!m.getContentTopic().isEmpty()) {
            contentTopic = writeBytes(WakuMessage.CONTENT_TOPIC_FIELD_NUMBER, m.getContentTopicBytes(), out, frame, start);
        }
        if (m.hasVersion()) {
            out.writeUInt32(WakuMessage.VERSION_FIELD_NUMBER, m.getVersion());
        }
        if (m.hasTimestamp()) {
            out.writeSInt64(WakuMessage.TIMESTAMP_FIELD_NUMBER, m.getTimestamp());
        }
        if (m.hasMeta()) {
            meta = writeBytes(WakuMessage.META_FIELD_NUMBER, m.getMeta(), out, frame, start);
        }
        if (m.hasRateLimitProof()) {
            proof = writeBytes(WakuMessage.RATE_LIMIT_PROOF_FIELD_NUMBER, m.getRateLimitProof(), out, frame, start);
        }
        if (m.hasEphemeral()) {
            out.writeBool(WakuMessage.EPHEMERAL_FIELD_NUMBER, m.getEphemeral());
        }
        m.getUnknownFields().writeTo(out);
        return new WakuMessageView(payload, m.getContentTopic(), contentTopic,
                m.hasVersion() ? m.getVersion() : null, m.hasTimestamp() ? m.getTimestamp() : null,
                meta, proof, m.hasEphemeral() ? m.getEphemeral() : null);
    }

    private static ByteBuf writeBytes(int field, ByteString value, CodedOutputStream out, ByteBuf frame, int start) throws IOException {
        out.writeTag(field, LD);
        out.writeUInt32NoTag(value.size());
        int index = start + out.getTotalBytesWritten();
        out.writeRawBytes(value);
        return frame.slice(index, value.size());
    }
}
