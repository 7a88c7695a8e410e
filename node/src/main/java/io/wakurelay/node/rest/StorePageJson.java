package io.wakurelay.node.rest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.proto.WakuMessage;

import io.wakurelay.services.store.OpenQuery;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Writes a Store v3 page as nwaku's REST JSON, {@code {"requestId":..,"statusCode":200,"statusDesc":"OK",
 * "messages":[..],"paginationCursor":..}}, a chunk at a time: each {@link #nextChunk()} reads messages from the page
 * until about {@value #CHUNK_BYTES} bytes of JSON are written (at least one message), so that what the answer holds
 * at any time is one message and one chunk, never the page. Payloads are base64-encoded straight from the read
 * bytes into the chunk. Not thread-safe: one thread at a time (the chunks are asked for one after the other).
 *
 * <p>Every chunk is a view of the same array, refilled by the next {@link #nextChunk()}: a chunk must be written
 * before the next is asked for. {@link Responses#sendOneByOne} does exactly that (it asks for the next chunk once
 * the previous one's write completed, by which time the transport has copied it into its own buffer), and the
 * answer then allocates no heap for its JSON beyond that one array.
 */
final class StorePageJson implements AutoCloseable {
    static final int CHUNK_BYTES = 32 * 1024;

    private final OpenQuery page;
    private final boolean includeData;
    private final String requestId;
    private final Chunk chunk = new Chunk();
    private final JsonGenerator json;
    private boolean started;
    private boolean finished;

    StorePageJson(ObjectMapper mapper, OpenQuery page, boolean includeData, String requestId) {
        this.page = page;
        this.includeData = includeData;
        this.requestId = requestId;
        try {
            this.json = mapper.getFactory().createGenerator(chunk).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        } catch (IOException e) {
            throw new UncheckedIOException("a generator over memory cannot fail", e);
        }
    }

    /**
     * @return the next chunk of the answer (a heap buffer, nothing to release; valid until the next call), or null
     * once all was written
     */
    ByteBuf nextChunk() {
        if (finished) {
            return null;
        }
        try {
            if (!started) {
                started = true;
                json.writeStartObject();
                json.writeStringField("requestId", requestId);
                json.writeNumberField("statusCode", 200);
                json.writeStringField("statusDesc", "OK");
                json.writeArrayFieldStart("messages");
            }
            while (page.hasNext() && chunk.size() < CHUNK_BYTES) {
                write(page.next());
                json.flush();
            }
            if (!page.hasNext()) {
                json.writeEndArray();
                if (page.paginationCursor() != null) {
                    json.writeStringField("paginationCursor", page.paginationCursor().toHex());
                }
                json.writeEndObject();
                json.flush();
                finished = true;
            }
            return chunk.take();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON into memory cannot fail", e);
        }
    }

    private void write(StoredMessage m) throws IOException {
        json.writeStartObject();
        json.writeStringField("messageHash", m.hash().toHex());
        if (includeData) {
            WakuMessage message = m.message();
            json.writeObjectFieldStart("message");
            binary("payload", message.getPayload());
            json.writeStringField("contentTopic", message.getContentTopic());
            json.writeNumberField("version", Integer.toUnsignedLong(message.getVersion()));
            json.writeNumberField("timestamp", message.getTimestamp());
            if (message.hasMeta()) {
                binary("meta", message.getMeta());
            }
            if (message.hasRateLimitProof()) {
                binary("proof", message.getRateLimitProof()); // nwaku's name
            }
            json.writeBooleanField("ephemeral", message.getEphemeral());
            json.writeEndObject();
            json.writeStringField("pubsubTopic", m.pubsubTopic());
        }
        json.writeEndObject();
    }

    /** Standard base64 with padding (as java.util.Base64), encoded from the bytes in place. */
    private void binary(String field, ByteString bytes) throws IOException {
        json.writeFieldName(field);
        json.writeBinary(bytes.newInput(), bytes.size());
    }

    /**
     * Closes the page, which frees its query slot. May be called from another thread while a chunk is being written
     * (the client went away): the page waits for its read in progress; the generator, which holds nothing but memory,
     * is left to the garbage collector rather than closed under the writer's feet.
     */
    @Override
    public void close() {
        page.close();
    }

    /** The bytes written since the last {@link #take()}, handed over without a copy; the array is reused. */
    private static final class Chunk extends OutputStream {
        private byte[] buffer = new byte[CHUNK_BYTES * 2];
        private int size;

        int size() {
            return size;
        }

        @Override
        public void write(int b) {
            ensure(1);
            buffer[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buffer, size, len);
            size += len;
        }

        private void ensure(int more) {
            if (size + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
            }
        }

        ByteBuf take() {
            ByteBuf taken = Unpooled.wrappedBuffer(buffer, 0, size);
            size = 0;
            return taken;
        }
    }
}
