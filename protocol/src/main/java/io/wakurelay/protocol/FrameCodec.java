package io.wakurelay.protocol;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.protocol.proto.Frame;
import io.wakurelay.protocol.proto.Publish;

import java.io.IOException;

/**
 * Parses and writes length-prefixed {@link Frame}s on pooled buffers. A Publish frame is located without
 * copying (its message stays in the frame buffer for {@link EnvelopeDecoder}); control frames are parsed
 * by the generated code.
 */
public final class FrameCodec {
    private static final int PUBSUB_TOPIC = WireReader.tag(Publish.PUBSUB_TOPIC_FIELD_NUMBER, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int MESSAGE = WireReader.tag(Publish.MESSAGE_FIELD_NUMBER, WireReader.WIRETYPE_LENGTH_DELIMITED);
    /** Field numbers of the Frame oneof: 1 (hello) to 7 (goodbye). */
    private static final int FIRST_KIND = Frame.HELLO_FIELD_NUMBER;
    private static final int LAST_KIND = Frame.GOODBYE_FIELD_NUMBER;

    private FrameCodec() {
    }

    /** Number of bytes of the varint length prefix at the start of {@code frame}. */
    public static int prefixLength(ByteBuf frame) {
        int index = frame.readerIndex();
        int n = 0;
        while (n < FrameDecoder.MAX_PREFIX_BYTES && n < frame.readableBytes()) {
            if ((frame.getByte(index + n++) & 0x80) == 0) {
                return n;
            }
        }
        throw new ProtocolViolation(Violation.MALFORMED_LENGTH_PREFIX, "frame does not start with a length prefix");
    }

    /**
     * Parses a whole frame as emitted by {@link FrameDecoder} (prefix included). Does not change the
     * buffer's indexes or reference count. As in protobuf, the last oneof field present decides the kind;
     * a Publish that appears twice in one frame is refused rather than merged.
     *
     * @throws ProtocolViolation when the frame is not a valid Frame of a known kind
     */
    public static InboundFrame parse(ByteBuf frame) {
        int prefix = prefixLength(frame);
        int index = frame.readerIndex() + prefix;
        int length = frame.readableBytes() - prefix;
        WireReader in = new WireReader(frame, index, length, Violation.MALFORMED_FRAME);
        int kind = 0;
        int kindStart = 0;
        int kindLength = 0;
        while (in.hasMore()) {
            int tag = in.readTag();
            int field = WireReader.fieldNumber(tag);
            if (field >= FIRST_KIND && field <= LAST_KIND && WireReader.wireType(tag) == WireReader.WIRETYPE_LENGTH_DELIMITED) {
                if (field == Frame.PUBLISH_FIELD_NUMBER && kind == field) {
                    throw new ProtocolViolation(Violation.MALFORMED_FRAME, "frame carries two Publish messages");
                }
                kind = field;
                kindStart = in.readLengthDelimited();
                kindLength = in.lastLength(kindStart);
            } else {
                in.skipField(tag);
            }
        }
        if (kind == 0) {
            throw new ProtocolViolation(Violation.MALFORMED_FRAME, "frame carries none of the known kinds");
        }
        if (kind == Frame.PUBLISH_FIELD_NUMBER) {
            return publish(frame, kindStart, kindLength);
        }
        try {
            return new InboundFrame.Control(Frame.parseFrom(frame.nioBuffer(index, length)));
        } catch (InvalidProtocolBufferException e) {
            boolean utf8 = e.getMessage() != null && e.getMessage().contains("UTF-8");
            throw new ProtocolViolation(utf8 ? Violation.INVALID_UTF8 : Violation.MALFORMED_FRAME,
                    "frame is not a valid Frame: " + e.getMessage(), e);
        }
    }

    private static InboundFrame.Publish publish(ByteBuf frame, int index, int length) {
        WireReader in = new WireReader(frame, index, length, Violation.MALFORMED_FRAME);
        String topic = "";
        int messageIndex = index;
        int messageLength = 0;
        while (in.hasMore()) {
            int tag = in.readTag();
            if (tag == PUBSUB_TOPIC) {
                topic = in.readString(Violation.INVALID_UTF8, "pubsub topic");
            } else if (tag == MESSAGE) {
                messageIndex = in.readLengthDelimited();
                messageLength = in.lastLength(messageIndex);
            } else {
                in.skipField(tag);
            }
        }
        return new InboundFrame.Publish(topic, messageIndex, messageLength);
    }

    /** Writes {@code frame} with its length prefix into a new pooled direct buffer. */
    public static ByteBuf encode(Frame frame, ByteBufAllocator allocator) {
        int size = frame.getSerializedSize();
        int total = CodedOutputStream.computeUInt32SizeNoTag(size) + size;
        ByteBuf out = allocator.directBuffer(total, total);
        try {
            CodedOutputStream output = CodedOutputStream.newInstance(out.nioBuffer(out.writerIndex(), total));
            output.writeUInt32NoTag(size);
            frame.writeTo(output);
            output.flush();
            out.writerIndex(out.writerIndex() + total);
            return out;
        } catch (IOException | RuntimeException e) {
            out.release();
            throw new IllegalStateException("encoding a Frame into a buffer of its computed size failed", e);
        }
    }
}
