package io.wakurelay.node.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/**
 * Reads request bodies: JSON only ({@code Content-Type: application/json}, else 415: a web page can send a form or
 * {@code text/plain} POST to any address without asking, but not JSON), with a size limit, refusing oversized ones
 * without buffering them: 400 as nwaku answers bodies up to its 16 MiB limit (the message in them is over the
 * message size limit; a route may answer in nwaku's words for that), 413 above it, as nwaku. A body over the limit
 * and under nwaku's is read to its end and dropped before the answer, so that a client that sends its whole body
 * before it reads (Python's requests, curl) gets the answer rather than a reset; what that costs is bounded by the
 * 16 MiB and the server's request read timeout, and nothing of it is kept.
 */
final class Bodies {
    /** nwaku's REST body limit (its {@code maxRequestBodySize}, 16,384 KiB): above it chronos answers 413, as we do. */
    static final long NWAKU_MAX_BODY_BYTES = 16L << 20;
    private Bodies() {
    }

    static Mono<byte[]> read(HttpServerRequest request, int maxBytes) {
        return read(request, maxBytes, () -> tooLarge(maxBytes));
    }

    /** @param oversized the answer to a body over {@code maxBytes} and under nwaku's limit */
    static Mono<byte[]> read(HttpServerRequest request, int maxBytes, Supplier<? extends RuntimeException> oversized) {
        String type = request.requestHeaders().get(HttpHeaderNames.CONTENT_TYPE);
        if (!isJson(type)) {
            return Mono.error(new HttpError(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "the body must be JSON with Content-Type: application/json, "
                    + (type == null ? "there was no Content-Type" : "was '" + (type.length() > 100 ? type.substring(0, 100) + "..." : type) + "'")));
        }
        String declared = request.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                return Mono.error(HttpError.badRequest("Content-Length is not a number"));
            }
            if (length > NWAKU_MAX_BODY_BYTES) {
                return Mono.error(overNwakusLimit(maxBytes));
            }
            if (length > maxBytes) {
                // read to its end (each chunk released as it comes) so that the client gets to read the answer
                return request.receive().then(Mono.error(oversized));
            }
        }
        return request.receive()
                .reduceWith(Body::new, (body, chunk) -> body.append(chunk, maxBytes))
                .defaultIfEmpty(new Body())
                .map(body -> {
                    if (body.over) {
                        throw oversized.get();
                    }
                    return body.out.toByteArray();
                });
    }

    private static HttpError overNwakusLimit(int maxBytes) {
        return new HttpError(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "request body is larger than " + maxBytes + " bytes");
    }

    /** What was read of a body: its bytes while within the limit; past it only that it was over (nothing kept). */
    private static final class Body {
        private ByteArrayOutputStream out = new ByteArrayOutputStream();
        private long read;
        private boolean over;

        Body append(ByteBuf chunk, int maxBytes) {
            read += chunk.readableBytes();
            if (read > NWAKU_MAX_BODY_BYTES) {
                throw overNwakusLimit(maxBytes); // a body without Content-Length, past what nwaku reads
            }
            if (read > maxBytes) {
                over = true;
                out = null; // the rest is read only to reach its end
                return this;
            }
            try {
                chunk.readBytes(out, chunk.readableBytes());
            } catch (IOException e) {
                throw new UncheckedIOException("a ByteArrayOutputStream does not fail", e);
            }
            return this;
        }
    }

    /** {@code application/json}, with or without parameters such as {@code ; charset=utf-8}. */
    /** @throws HttpError 400 for an empty body or one that is not JSON */
    static JsonNode json(ObjectMapper mapper, byte[] body) {
        if (body.length == 0) {
            throw HttpError.badRequest("the request has no body");
        }
        try {
            return mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw HttpError.badRequest("the body is not valid JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw HttpError.badRequest("the body could not be read: " + e.getMessage());
        }
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String media = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return media.equalsIgnoreCase("application/json");
    }

    /**
     * 400, as nwaku answers a body under its own limit ({@link #NWAKU_MAX_BODY_BYTES}) that holds a message over the
     * message size limit, which every body over ours does; scripts check for it.
     */
    private static HttpError tooLarge(int maxBytes) {
        return HttpError.badRequest("request body is larger than " + maxBytes + " bytes");
    }
}
