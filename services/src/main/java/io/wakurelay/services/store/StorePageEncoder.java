package io.wakurelay.services.store;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.protocol.MessageHash;
import io.wakurelay.services.proto.StoreQueryResponse;
import io.wakurelay.services.proto.WakuMessageKeyValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * An open page written as one framed {@code StoreQueryResponse} of at most {@code maxBytes}, each message encoded into
 * the frame as the page reads it: no list of the page's messages, no response object, no second copy. The frame's
 * room for the length prefix and the status fields is kept at its start; the messages follow; once the page is
 * read, the response is cut to the limit (a page with data is already within the archive's byte budget; the
 * encoding's overhead can still push it past) and the status fields and the prefix are written right before the
 * first message kept. At least one message is always kept, so paging advances.
 *
 * <p>A cut keeps what the scan reached first: a forward page its oldest messages, a backward page its newest (pages
 * are chronological, a backward scan goes newest first); the cursor is then the last message kept in scan order, so
 * the next page continues right after it.
 */
final class StorePageEncoder {
    /** Room for the largest length prefix of a frame within an {@code int}. */
    private static final int PREFIX_ROOM = 5;
    /** A pagination cursor's field: its room is kept whether or not one is sent. */
    private static final int CURSOR_FIELD = CodedOutputStream.computeBytesSize(
            StoreQueryResponse.PAGINATION_CURSOR_FIELD_NUMBER, ByteString.copyFrom(new byte[MessageHash.LENGTH]));

    /**
     * @param frame     {@code uvarint(length) ‖ StoreQueryResponse}, owned by the caller
     * @param truncated true when the encoding cut the page short (the archive's own cut is the caller's to see)
     */
    record Encoded(ByteBuf frame, boolean truncated) {
    }

    private StorePageEncoder() {
    }

    /** Reads {@code page} to its end, encoding it; the caller closes the page. */
    static Encoded encode(ByteBufAllocator alloc, String requestId, StoreQuery query, OpenQuery page, int maxBytes) {
        StoreQueryResponse status = StoreCodec.status(requestId, StoreStatus.SUCCESS, StoreStatus.SUCCESS.label());
        int statusSize = status.getSerializedSize();
        int room = PREFIX_ROOM + statusSize;
        int count = page.size();
        ByteBuf frame = alloc.buffer((int) Math.min(maxBytes + (long) room,
                room + page.dataBytes() + 96L * count + CURSOR_FIELD));
        try {
            frame.writerIndex(room);
            int[] starts = new int[Math.max(count, 1)];
            MessageHash[] hashes = new MessageHash[starts.length];
            int n = 0;
            while (page.hasNext()) {
                StoredMessage m = page.next();
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                    hashes = Arrays.copyOf(hashes, n * 2);
                }
                starts[n] = frame.writerIndex();
                hashes[n++] = m.hash();
                write(frame, keyValue(m, query.includeData()), true);
            }
            int end = frame.writerIndex();
            // what fits, in scan order: the first messages of a forward page, the last of a backward one
            long size = Uvarint.size(maxBytes) + statusSize + CURSOR_FIELD;
            int kept = 0;
            while (kept < n) {
                int i = query.ascending() ? kept : n - 1 - kept;
                int kvSize = (i + 1 < n ? starts[i + 1] : end) - starts[i];
                if (kept > 0 && size + kvSize > maxBytes) {
                    break;
                }
                size += kvSize;
                kept++;
            }
            boolean truncated = kept < n;
            int first = query.ascending() || n == 0 ? 0 : n - kept;
            int bodyStart = n == 0 ? room : starts[first];
            if (query.ascending() && truncated) {
                frame.writerIndex(starts[kept]);
            }
            MessageHash cursor = !truncated ? page.paginationCursor() : hashes[query.ascending() ? kept - 1 : first];
            if (cursor != null) {
                writeCursor(frame, cursor);
            }
            int start = bodyStart - statusSize;
            int bodyLength = frame.writerIndex() - start;
            int prefix = Uvarint.size(bodyLength);
            int writerIndex = frame.writerIndex();
            frame.writerIndex(start);
            write(frame, status, false);
            frame.writerIndex(start - prefix);
            Uvarint.write(frame, bodyLength);
            frame.writerIndex(writerIndex);
            frame.readerIndex(start - prefix);
            return new Encoded(frame, truncated);
        } catch (RuntimeException | Error e) {
            frame.release();
            throw e;
        }
    }

    private static WakuMessageKeyValue keyValue(StoredMessage m, boolean includeData) {
        WakuMessageKeyValue.Builder kv = WakuMessageKeyValue.newBuilder()
                .setMessageHash(ByteString.copyFrom(m.hash().toByteArray()));
        if (includeData && m.message() != null && m.pubsubTopic() != null) {
            kv.setMessage(m.message()).setPubsubTopic(m.pubsubTopic()); // both or neither, as the spec says
        }
        return kv.build();
    }

    /** Writes {@code message} at the writer index: as a {@code messages} entry, or as it is (the status fields). */
    private static void write(ByteBuf frame, MessageLite message, boolean asEntry) {
        int size = asEntry ? CodedOutputStream.computeMessageSize(StoreQueryResponse.MESSAGES_FIELD_NUMBER, message)
                : message.getSerializedSize();
        frame.ensureWritable(size);
        int at = frame.writerIndex();
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(frame.nioBuffer(at, size));
            if (asEntry) {
                out.writeMessage(StoreQueryResponse.MESSAGES_FIELD_NUMBER, message);
            } else {
                message.writeTo(out);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding into a buffer of the computed size failed", e);
        }
        frame.writerIndex(at + size);
    }

    private static void writeCursor(ByteBuf frame, MessageHash cursor) {
        ByteString bytes = ByteString.copyFrom(cursor.toByteArray());
        int size = CodedOutputStream.computeBytesSize(StoreQueryResponse.PAGINATION_CURSOR_FIELD_NUMBER, bytes);
        frame.ensureWritable(size);
        int at = frame.writerIndex();
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(frame.nioBuffer(at, size));
            out.writeBytes(StoreQueryResponse.PAGINATION_CURSOR_FIELD_NUMBER, bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding into a buffer of the computed size failed", e);
        }
        frame.writerIndex(at + size);
    }
}
