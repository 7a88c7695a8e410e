package io.wakurelay.protocol;

import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Reads protobuf wire format from a region of a ByteBuf without copying it, with protobuf-java's
 * semantics: unknown fields and known fields of an unexpected wire type are skipped, the last value of a
 * field wins, strings must be valid UTF-8, and malformed input is refused.
 *
 * <p>It exists because protobuf-java 4.x parses from direct memory only by copying it into a heap array
 * first; see docs/adr/0002-aliasing-wire-reader.md. Only the hot messages (the relay's RPC and Message, and
 * WakuMessage) are read this way; everything else uses the generated parsers.
 */
public final class WireReader {
    public static final int WIRETYPE_VARINT = WireFormat.WIRETYPE_VARINT;
    public static final int WIRETYPE_FIXED64 = WireFormat.WIRETYPE_FIXED64;
    public static final int WIRETYPE_LENGTH_DELIMITED = WireFormat.WIRETYPE_LENGTH_DELIMITED;
    public static final int WIRETYPE_START_GROUP = WireFormat.WIRETYPE_START_GROUP;
    public static final int WIRETYPE_END_GROUP = WireFormat.WIRETYPE_END_GROUP;
    public static final int WIRETYPE_FIXED32 = WireFormat.WIRETYPE_FIXED32;
    /** protobuf-java's default recursion limit, applied to nested groups. */
    private static final int MAX_GROUP_DEPTH = 100;
    /** Topics, shared by every reader: the same few arrive in every message, on every connection. */
    private static final RepeatedStrings REPEATED = new RepeatedStrings();

    private final ByteBuf buf;
    private final Violation violation;
    private int position;
    private final int end;

    /** @param violation the reason reported when the bytes are malformed */
    public WireReader(ByteBuf buf, int index, int length, Violation violation) {
        this.buf = buf;
        this.position = index;
        this.end = index + length;
        this.violation = violation;
    }

    public boolean hasMore() {
        return position < end;
    }

    public int position() {
        return position;
    }

    public static int fieldNumber(int tag) {
        return tag >>> 3;
    }

    public static int wireType(int tag) {
        return tag & 7;
    }

    public static int tag(int fieldNumber, int wireType) {
        return (fieldNumber << 3) | wireType;
    }

    public int readTag() {
        int tag = readVarint32();
        if (fieldNumber(tag) == 0) {
            throw malformed("contains an invalid tag (zero)");
        }
        int type = wireType(tag);
        if (type > WIRETYPE_FIXED32) {
            throw malformed("contains an invalid wire type " + type);
        }
        return tag;
    }

    /**
     * A varint read as protobuf-java's readRawVarint32 does (tags, lengths, uint32): up to 10 bytes, the
     * low 32 bits kept, a tenth byte that still has its continuation bit refused.
     */
    public int readVarint32() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = nextByte();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (int) result;
            }
        }
        throw malformed("contains a malformed varint");
    }

    /**
     * A varint read as protobuf-java's readRawVarint64 does (sint64, bool): up to 10 bytes. Its array
     * decoder also accepts a tenth byte that keeps its continuation bit when the byte's lowest bit is set
     * (only that bit is used); that quirk is matched so both parsers accept exactly the same inputs.
     */
    public long readVarint64() {
        long result = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            byte b = nextByte();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        byte tenth = nextByte();
        if ((tenth & 0x80) != 0 && (tenth & 1) == 0) {
            throw malformed("contains a malformed varint");
        }
        return result | (long) tenth << 63;
    }

    private byte nextByte() {
        if (position >= end) {
            throw malformed("ends in the middle of a varint");
        }
        return buf.getByte(position++);
    }

    /** Reads a length prefix and returns the start index of the region; the reader moves past it. */
    public int readLengthDelimited() {
        int length = readVarint32();
        if (length < 0) {
            throw malformed("contains a field with a negative size");
        }
        if (length > end - position) {
            throw malformed("is truncated: a field claims " + length + " bytes, " + (end - position) + " remain");
        }
        int start = position;
        position += length;
        return start;
    }

    /** The length of the region returned by the last {@link #readLengthDelimited()}. */
    public int lastLength(int start) {
        return position - start;
    }

    public String readString(Violation utf8Violation, String field) {
        int start = readLengthDelimited();
        return utf8(buf, start, position - start, utf8Violation, field);
    }

    /** Decodes strictly: invalid UTF-8 is refused, as protobuf refuses it in proto3 string fields. */
    public static String utf8(ByteBuf bytes, Violation utf8Violation, String field) {
        return utf8(bytes, bytes.readerIndex(), bytes.readableBytes(), utf8Violation, field);
    }

    /** {@link #utf8(ByteBuf, Violation, String)} of {@code length} bytes at {@code index}; a repeated short string is not decoded again. */
    private static String utf8(ByteBuf bytes, int index, int length, Violation utf8Violation, String field) {
        String known = REPEATED.find(bytes, index, length);
        if (known != null) {
            return known;
        }
        byte[] copy = new byte[length];
        bytes.getBytes(index, copy);
        if (!UnsafeByteOperations.unsafeWrap(copy).isValidUtf8()) {
            throw new ProtocolViolation(utf8Violation, field + " is not valid UTF-8");
        }
        return REPEATED.keep(copy, new String(copy, StandardCharsets.UTF_8));
    }

    public void skipField(int tag) {
        skipField(tag, 0);
    }

    private void skipField(int tag, int depth) {
        switch (wireType(tag)) {
            case WIRETYPE_VARINT -> readVarint64();
            case WIRETYPE_FIXED64 -> skipBytes(8);
            case WIRETYPE_LENGTH_DELIMITED -> readLengthDelimited();
            case WIRETYPE_FIXED32 -> skipBytes(4);
            case WIRETYPE_START_GROUP -> skipGroup(fieldNumber(tag), depth + 1);
            default -> throw malformed("contains an unexpected end-group tag");
        }
    }

    private void skipGroup(int fieldNumber, int depth) {
        if (depth > MAX_GROUP_DEPTH) {
            throw malformed("nests groups deeper than " + MAX_GROUP_DEPTH);
        }
        while (true) {
            if (!hasMore()) {
                throw malformed("ends inside a group");
            }
            int tag = readTag();
            if (wireType(tag) == WIRETYPE_END_GROUP) {
                if (fieldNumber(tag) != fieldNumber) {
                    throw malformed("closes a group it did not open");
                }
                return;
            }
            skipField(tag, depth);
        }
    }

    private void skipBytes(int n) {
        if (n > end - position) {
            throw malformed("is truncated inside a fixed-size field");
        }
        position += n;
    }

    public ProtocolViolation malformed(String what) {
        return new ProtocolViolation(violation, "protobuf " + what);
    }
}
