package io.wakurelay.node.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerResponse;

import java.nio.charset.StandardCharsets;

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

    static Publisher<Void> text(HttpServerResponse response, HttpResponseStatus status, String body) {
        return response.status(status)
                .header(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .sendByteArray(Mono.just(body.getBytes(StandardCharsets.UTF_8)));
    }

    static Publisher<Void> error(HttpServerResponse response, ObjectMapper mapper, HttpError error) {
        return json(response, mapper, error.status(), MessageJson.error(error.getMessage()));
    }
}
