package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.lightpush.LegacyLightpushOutcome;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.util.function.LongSupplier;

/**
 * nwaku's legacy {@code POST /lightpush/v1/message} (rest_api/endpoint/legacy_lightpush), which tools still call:
 * the same body as v3, answered as nwaku answers it, in text/plain: 200 {@code OK}; 400 for a body or message that
 * does not decode; 429 {@code Request rate limmit reached} (nwaku's spelling); 503 {@code Push request timed out};
 * any other failure 503 {@code Failed to request a message push: <info>} with the legacy protocol's info
 * ({@code not_published_to_any_peer}, {@code Message size exceeded maximum of 153600 bytes}, {@code dial_failure}).
 */
final class LegacyLightpushApi {
    static final String RATE_LIMITED = "Request rate limmit reached";
    static final String FAILED = "Failed to request a message push: ";

    private final LightpushPort lightpush;
    private final LightpushApi v3;
    private final ObjectMapper mapper;
    private final RestConfig config;
    private final LongSupplier clockNanos;

    /** @param v3 the v3 route, whose pubsub topic rule (given, or derived by automatic sharding) is the same */
    LegacyLightpushApi(LightpushPort lightpush, LightpushApi v3, ObjectMapper mapper, RestConfig config, LongSupplier clockNanos) {
        this.lightpush = lightpush;
        this.v3 = v3;
        this.mapper = mapper;
        this.config = config;
        this.clockNanos = clockNanos;
    }

    /** POST /lightpush/v1/message with {@code {"pubsubTopic": "...", "message": {...}}}. */
    Publisher<Void> push(HttpServerRequest request, HttpServerResponse response) {
        return Bodies.read(request, config.maxBodyBytes())
                .flatMap(bytes -> {
                    if (bytes.length == 0) {
                        throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST, "Missing content body");
                    }
                    JsonNode body;
                    try {
                        body = Bodies.json(mapper, bytes);
                    } catch (HttpError e) {
                        throw undecodable(e.getMessage());
                    }
                    if (body == null || !body.isObject()) {
                        throw undecodable("the body must be a JSON object with message and pubsubTopic");
                    }
                    if (!body.hasNonNull("message")) {
                        throw undecodable("Field `message` is missing");
                    }
                    WakuMessage message;
                    try {
                        message = MessageJson.read(body.get("message"), clockNanos.getAsLong());
                    } catch (HttpError e) {
                        throw HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST, "Invalid message: " + e.getMessage());
                    }
                    JsonNode given = body.get("pubsubTopic");
                    // nwaku's legacy request takes an empty pubsubTopic as none
                    String topic = v3.pubsubTopic(given != null && given.isTextual() && given.asText().isEmpty() ? null : given, message);
                    if (lightpush == null) {
                        throw HttpError.nwakuText(HttpResponseStatus.SERVICE_UNAVAILABLE, LightpushApi.NO_SERVICE_PEER);
                    }
                    return lightpush.pushLegacy(topic, message);
                })
                .flatMap(outcome -> Mono.from(answer(response, outcome)));
    }

    private static HttpError undecodable(String reason) {
        return HttpError.nwakuText(HttpResponseStatus.BAD_REQUEST, "Invalid content body, could not decode: " + reason);
    }

    private static Publisher<Void> answer(HttpServerResponse response, LegacyLightpushOutcome outcome) {
        if (outcome.success()) {
            return Responses.text(response, HttpResponseStatus.OK, "OK");
        }
        if (LegacyLightpushOutcome.TOO_MANY_REQUESTS.equals(outcome.info())) {
            throw HttpError.nwakuText(HttpResponseStatus.TOO_MANY_REQUESTS, RATE_LIMITED);
        }
        if (LegacyLightpushOutcome.TIMED_OUT.equals(outcome.info())) {
            throw HttpError.nwakuText(HttpResponseStatus.SERVICE_UNAVAILABLE, LegacyLightpushOutcome.TIMED_OUT);
        }
        throw HttpError.nwakuText(HttpResponseStatus.SERVICE_UNAVAILABLE, FAILED + outcome.info());
    }
}
