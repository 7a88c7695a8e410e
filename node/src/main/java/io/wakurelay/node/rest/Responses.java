package io.wakurelay.node.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.buffer.ByteBuf;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.NettyOutbound;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Writes JSON and text responses. */
final class Responses {
    private Responses() {
    }

    static Publisher<Void> json(HttpServerResponse response, ObjectMapper mapper, HttpResponseStatus status, Object body) {
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            return Mono.error(new IllegalStateException("response does not serialise", e));
        }
        return response.status(status)
                .header(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .sendByteArray(Mono.just(bytes));
    }

    /**
     * Sends each chunk only once the previous one is written to the socket, so that what a slow reader makes the node
     * hold is one chunk, not the whole answer (Reactor Netty asks a body's publisher for up to 128 items at once
     * and keeps what the socket does not take). The chunks are heap buffers (wrapped arrays, nothing to release); the
     * next is asked for only once the previous one's write completed, so a producer may reuse its array.
     */
    static Mono<Void> sendOneByOne(NettyOutbound out, Flux<ByteBuf> chunks) {
        return chunks.concatMap(chunk -> out.send(Flux.just(chunk)), 0).then();
    }

    /** As {@link #sendOneByOne(NettyOutbound, Flux)}; a chunk the client does not take within {@code stall} ends the answer with an error. */
    static Mono<Void> sendOneByOne(NettyOutbound out, Flux<ByteBuf> chunks, Duration stall) {
        return chunks.concatMap(chunk -> Mono.from(out.send(Flux.just(chunk))).timeout(stall), 0).then();
    }

    static Publisher<Void> text(HttpServerResponse response, HttpResponseStatus status, String body) {
        return response.status(status)
                .header(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .sendByteArray(Mono.just(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** A JSON {@code {"error": ...}}, or an error in nwaku's words as text/plain unless the client asks for JSON. */
    static Publisher<Void> error(HttpServerRequest request, HttpServerResponse response, ObjectMapper mapper, HttpError error) {
        if (error.nwakuText() && !acceptsJson(request)) {
            return text(response, error.status(), error.getMessage());
        }
        return json(response, mapper, error.status(), MessageJson.error(error.getMessage()));
    }

    /** Whether the client's {@code Accept} names JSON (then an error in nwaku's words keeps our JSON shape). */
    static boolean acceptsJson(HttpServerRequest request) {
        String accept = request.requestHeaders().get(HttpHeaderNames.ACCEPT);
        return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains("application/json");
    }
}
