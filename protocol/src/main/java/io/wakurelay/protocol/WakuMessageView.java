package io.wakurelay.protocol;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.proto.WakuMessage;

/**
 * A decoded WakuMessage whose bytes fields are slices of the buffer it was read from: nothing is copied,
 * and nothing is valid after that buffer is released. Strings (the content topic) are decoded.
 *
 * <p>The slices do not hold references of their own; the {@link Envelope} that owns the buffer does.
 */
public final class WakuMessageView {
    private static final int PAYLOAD = WireReader.tag(WakuMessage.PAYLOAD_FIELD_NUMBER, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int CONTENT_TOPIC = WireReader.tag(WakuMessage.CONTENT_TOPIC_FIELD_NUMBER, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int VERSION = WireReader.tag(WakuMessage.VERSION_FIELD_NUMBER, WireReader.WIRETYPE_VARINT);
    private static final int TIMESTAMP = WireReader.tag(WakuMessage.TIMESTAMP_FIELD_NUMBER, WireReader.WIRETYPE_VARINT);
    private static final int META = WireReader.tag(WakuMessage.META_FIELD_NUMBER, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int RATE_LIMIT_PROOF = WireReader.tag(WakuMessage.RATE_LIMIT_PROOF_FIELD_NUMBER, WireReader.WIRETYPE_LENGTH_DELIMITED);
    private static final int EPHEMERAL = WireReader.tag(WakuMessage.EPHEMERAL_FIELD_NUMBER, WireReader.WIRETYPE_VARINT);

    private final ByteBuf payload;
    private final String contentTopic;
    private final ByteBuf contentTopicBytes;
    private final Integer version;
    private final Long timestamp;
    private final ByteBuf meta;
    private final ByteBuf rateLimitProof;
    private final Boolean ephemeral;

    WakuMessageView(ByteBuf payload, String contentTopic, ByteBuf contentTopicBytes, Integer version, Long timestamp,
                    ByteBuf meta, ByteBuf rateLimitProof, Boolean ephemeral) {
        this.payload = payload;
        this.contentTopic = contentTopic;
        this.contentTopicBytes = contentTopicBytes;
        this.version = version;
        this.timestamp = timestamp;
        this.meta = meta;
        this.rateLimitProof = rateLimitProof;
        this.ephemeral = ephemeral;
    }

    /** Reads the WakuMessage encoded in {@code buf[index, index + length)}. */
    static WakuMessageView read(ByteBuf buf, int index, int length) {
        WireReader in = new WireReader(buf, index, length, Violation.MALFORMED_MESSAGE);
        ByteBuf payload = Unpooled.EMPTY_BUFFER;
        String contentTopic = "";
        ByteBuf contentTopicBytes = Unpooled.EMPTY_BUFFER;
        Integer version = null;
        Long timestamp = null;
        ByteBuf meta = null;
        ByteBuf rateLimitProof = null;
        Boolean ephemeral = null;
        while (in.hasMore()) {
            int tag = in.readTag();
            if (tag == PAYLOAD) {
                payload = slice(in, buf);
            } else if (tag == CONTENT_TOPIC) {
                contentTopicBytes = slice(in, buf);
                contentTopic = WireReader.utf8(contentTopicBytes, Violation.INVALID_UTF8, "content topic");
            } else if (tag == VERSION) {
                version = in.readVarint32();
            } else if (tag == TIMESTAMP) {
                long raw = in.readVarint64();
                timestamp = (raw >>> 1) ^ -(raw & 1);
            } else if (tag == META) {
                meta = slice(in, buf);
            } else if (tag == RATE_LIMIT_PROOF) {
                rateLimitProof = slice(in, buf);
            } else if (tag == EPHEMERAL) {
                ephemeral = in.readVarint64() != 0;
            } else {
                in.skipField(tag);
            }
        }
        return new WakuMessageView(payload, contentTopic, contentTopicBytes, version, timestamp, meta, rateLimitProof, ephemeral);
    }

    private static ByteBuf slice(WireReader in, ByteBuf buf) {
        int start = in.readLengthDelimited();
        return buf.slice(start, in.lastLength(start));
    }

    /** The payload, aliasing the frame. Do not modify it or keep it past the envelope's release. */
    public ByteBuf payload() {
        return payload.duplicate();
    }

    public int payloadSize() {
        return payload.readableBytes();
    }

    public String contentTopic() {
        return contentTopic;
    }

    /** The content topic's UTF-8 bytes as received, aliasing the frame (RLN's signal hashes them). */
    public ByteBuf contentTopicBytes() {
        return contentTopicBytes.duplicate();
    }

    /** {@link #contentTopicBytes()} without the duplicate, for this package's hasher. */
    ByteBuf contentTopicSlice() {
        return contentTopicBytes;
    }

    public boolean hasVersion() {
        return version != null;
    }

    public int version() {
        return version == null ? 0 : version;
    }

    public boolean hasTimestamp() {
        return timestamp != null;
    }

    /** Unix nanoseconds, 0 when absent. */
    public long timestamp() {
        return timestamp == null ? 0 : timestamp;
    }

    public boolean hasMeta() {
        return meta != null;
    }

    /** The meta bytes (empty when absent), aliasing the frame. */
    public ByteBuf meta() {
        return meta == null ? Unpooled.EMPTY_BUFFER : meta.duplicate();
    }

    public int metaSize() {
        return meta == null ? 0 : meta.readableBytes();
    }

    public boolean hasRateLimitProof() {
        return rateLimitProof != null;
    }

    /** The RateLimitProof bytes (field 21; empty when absent), aliasing the frame. */
    public ByteBuf rateLimitProof() {
        return rateLimitProof == null ? Unpooled.EMPTY_BUFFER : rateLimitProof.duplicate();
    }

    public boolean hasEphemeral() {
        return ephemeral != null;
    }

    public boolean ephemeral() {
        return ephemeral != null && ephemeral;
    }

    /**
     * A heap copy as the generated message type, for tools and tests. Copies the payload: the hot path
     * never calls it, and a node counts it in {@link PathCounters#payloadCopies()} when something does.
     */
    public WakuMessage toProto(PathCounters counters) {
        WakuMessage.Builder b = WakuMessage.newBuilder()
                .setPayload(copy(payload))
                .setContentTopic(contentTopic);
        if (payload.isReadable()) {
            counters.payloadCopied();
        }
        if (version != null) {
            b.setVersion(version);
        }
        if (timestamp != null) {
            b.setTimestamp(timestamp);
        }
        if (meta != null) {
            b.setMeta(copy(meta));
        }
        if (rateLimitProof != null) {
            b.setRateLimitProof(copy(rateLimitProof));
        }
        if (ephemeral != null) {
            b.setEphemeral(ephemeral);
        }
        return b.build();
    }

    private static ByteString copy(ByteBuf b) {
        byte[] bytes = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), bytes);
        return ByteString.copyFrom(bytes);
    }
}
