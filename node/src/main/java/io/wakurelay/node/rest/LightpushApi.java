package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.proto.WakuMessage;
import io.wakurelay.services.lightpush.LightpushOutcome;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.util.function.LongSupplier;

/**
 * nwaku's {@code POST /lightpush/v3/message}: the message is pushed through the node's {@link LightpushPort} (its
 * own lightpush service, or the service node of {@code --lightpushnode}), and the answer is the lightpush v3 status,
 * sent as the HTTP status as nwaku sends it (200, 400, 413, 420, 421, 429, 500, 503, 505), with
 * {@code {"relayPeerCount": n}} or {@code {"statusDesc": ".."}}. nwaku serves the route on every node (its lightpush
 * client is always mounted): with neither a service nor a service node, 503 in its words.
 */
final class LightpushApi {
    /** nwaku's words when it has no lightpush service peer and no discovery to find one. */
    static final String NO_SERVICE_PEER = "No suitable service peer & no discovery method";

    private final LightpushPort lightpush;
    private final AutoSharding autoSharding;
    private final ObjectMapper mapper;
    private final RestConfig config;
    private final LongSupplier clockNanos;

    /**
     * @param lightpush    where pushes go; null when the node has neither a lightpush service nor a service node
     * @param autoSharding maps a content topic to its shard when the request names no pubsub topic; null: one is required
     */
    LightpushApi(LightpushPort lightpush, AutoSharding autoSharding, ObjectMapper mapper, RestConfig config,
                 LongSupplier clockNanos) {
        this.lightpush = lightpush;
        this.autoSharding = autoSharding;
        this.mapper = mapper;
        this.config = config;
        this.clockNanos = clockNanos;
    }

    /** POST /lightpush/v3/message with {@code {"pubsubTopic": "...", "message": {...}}}. */
    Publisher<Void> push(HttpServerRequest request, HttpServerResponse response) {
        return Bodies.read(request, config.maxBodyBytes())
                .flatMap(bytes -> {
                    JsonNode body = Bodies.json(mapper, bytes);
                    if (body == null || !body.isObject()) {
                        throw HttpError.badRequest("the body must be a JSON object with message and pubsubTopic");
                    }
                    WakuMessage message = MessageJson.read(body.get("message"), clockNanos.getAsLong());
                    String topic = pubsubTopic(body.get("pubsubTopic"), message);
                    if (lightpush == null) {
                        return Mono.just(new LightpushOutcome(HttpResponseStatus.SERVICE_UNAVAILABLE.code(), NO_SERVICE_PEER, 0));
                    }
                    return lightpush.push(topic, message);
                })
                .flatMap(outcome -> Mono.from(answer(response, outcome)));
    }

    /** The pubsub topic given, or derived from the content topic with automatic sharding; null: neither. */
    String pubsubTopic(JsonNode topic, WakuMessage message) {
        if (topic != null && !topic.isNull()) {
            if (!topic.isTextual()) {
                throw HttpError.badRequest("pubsubTopic must be a string");
            }
            return topic.asText();
        }
        if (autoSharding == null) {
            return null; // the service answers as nwaku does without automatic sharding: pubsub topic required
        }
        try {
            return autoSharding.pubsubTopic(message.getContentTopic());
        } catch (ProtocolViolation e) {
            throw HttpError.badRequest(e.getMessage());
        }
    }

    private Publisher<Void> answer(HttpServerResponse response, LightpushOutcome outcome) {
        ObjectNode body = mapper.createObjectNode();
        if (outcome.isSuccess()) {
            body.put("relayPeerCount", outcome.relayPeerCount());
        } else {
            body.put("statusDesc", outcome.statusDesc());
        }
        return Responses.json(response, mapper, HttpResponseStatus.valueOf(outcome.statusCode()), body);
    }
}
