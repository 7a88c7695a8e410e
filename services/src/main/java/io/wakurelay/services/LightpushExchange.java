package io.wakurelay.services;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.p2p.Stream;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.PublishResult;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayBusyException;
import io.wakurelay.relay.RelayClosedException;
import io.wakurelay.relay.RelayPeer;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.services.proto.LightPushResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lightpush v3 request on an inbound stream: decode, check the pubsub topic (this node must relay it, and a
 * relay peer must be on it), then publish through the relay, which validates, relays (flood publish) and hands the
 * message to the archive; answer with the status and the number of peers it was relayed to. Runs on the stream's
 * event loop: a publish does not block.
 */
final class LightpushExchange extends ServerExchange {
    private static final Logger log = LoggerFactory.getLogger(LightpushExchange.class);
    private static final String UNKNOWN_REQUEST_ID = "N/A";

    private final LightpushService service;
    private final Relay relay;
    private final LightpushMetrics metrics;

    LightpushExchange(LightpushService service) {
        super(service.config().maxRequestBytes(), service.config().requestTimeout(), service.rateLimiter(),
                service.metrics().service);
        this.service = service;
        this.relay = service.relay();
        this.metrics = service.metrics();
    }

    @Override
    void handle(Stream stream, ByteBuf request) {
        LightPushRequest decoded;
        try {
            decoded = LightPushRequest.parseFrom(request.nioBuffer());
        } catch (InvalidProtocolBufferException e) {
            respond(failureResponse(stream, Failure.MALFORMED, "the request is not a LightPushRequest: " + e.getMessage()));
            return;
        }
        metrics.requests.increment();
        String id = decoded.getRequestId();
        ByteBufAllocator alloc = stream.alloc();
        if (!decoded.hasMessage()) {
            respond(error(alloc, id, LightpushStatus.BAD_REQUEST, "the request carries no message"));
            return;
        }
        if (!decoded.hasPubsubTopic()) {
            // as nwaku with static sharding: there is no content-topic routing to fall back on
            respond(error(alloc, id, LightpushStatus.INVALID_MESSAGE, "pubsub_topic is required: this node uses static sharding"));
            return;
        }
        String topic = decoded.getPubsubTopic();
        if (topic.isBlank()) {
            respond(error(alloc, id, LightpushStatus.BAD_REQUEST, "pubsub_topic is empty"));
            return;
        }
        if (!relay.subscriptions().contains(topic)) {
            respond(error(alloc, id, LightpushStatus.UNSUPPORTED_PUBSUB_TOPIC, "this node does not relay " + topic
                    + "; it relays " + relay.subscriptions()));
            return;
        }
        if (service.isClosing()) {
            respond(error(alloc, id, LightpushStatus.SERVICE_UNAVAILABLE, "lightpush is shutting down"));
            return;
        }
        if (!hasRelayPeerOn(topic)) {
            // said before publishing, so that nothing is stored or marked seen and a retry later can succeed
            respond(error(alloc, id, LightpushStatus.NO_PEERS_TO_RELAY, "no relay peers on " + topic));
            return;
        }
        relay.publish(topic, decoded.getMessage()).subscribe(
                result -> respond(published(alloc, id, topic, result)),
                e -> respond(publishFailed(alloc, id, e)));
    }

    private boolean hasRelayPeerOn(String topic) {
        for (RelayPeer peer : relay.peers()) {
            if (peer.topics().contains(topic)) {
                return true;
            }
        }
        return false;
    }

    private ByteBuf published(ByteBufAllocator alloc, String id, String topic, PublishResult result) {
        if (result.duplicate()) {
            // as nwaku: a message seen before is not relayed again
            return error(alloc, id, LightpushStatus.INVALID_MESSAGE, "the message was already seen: " + result.hash());
        }
        if (result.relayedTo() == 0) {
            return error(alloc, id, LightpushStatus.NO_PEERS_TO_RELAY, "no relay peer on " + topic
                    + " took the message (this node has it: " + result.hash() + ")");
        }
        metrics.relayPeers.record(result.relayedTo());
        return Frames.lengthPrefixed(alloc, LightPushResponse.newBuilder().setRequestId(id)
                .setStatusCode(LightpushStatus.SUCCESS.code()).setRelayPeerCount(result.relayedTo()).build());
    }

    private ByteBuf publishFailed(ByteBufAllocator alloc, String id, Throwable e) {
        if (e instanceof ProtocolViolation violation) {
            return error(alloc, id, violation.violation() == Violation.MESSAGE_TOO_LARGE
                    ? LightpushStatus.PAYLOAD_TOO_LARGE : LightpushStatus.INVALID_MESSAGE, violation.getMessage());
        }
        if (e instanceof RelayBusyException) {
            return error(alloc, id, LightpushStatus.SERVICE_UNAVAILABLE, "this node is busy (its archive is behind); try again");
        }
        if (e instanceof RelayClosedException) {
            return error(alloc, id, LightpushStatus.SERVICE_UNAVAILABLE, "the relay is shutting down");
        }
        log.warn("lightpush publish failed", e);
        return error(alloc, id, LightpushStatus.INTERNAL_SERVER_ERROR, "internal error");
    }

    private ByteBuf error(ByteBufAllocator alloc, String id, LightpushStatus status, String description) {
        metrics.error(status);
        return Frames.lengthPrefixed(alloc, LightPushResponse.newBuilder().setRequestId(id).setStatusCode(status.code())
                .setStatusDesc(description).build());
    }

    @Override
    ByteBuf failureResponse(Stream stream, Failure failure, String description) {
        LightpushStatus status = switch (failure) {
            case MALFORMED, TRUNCATED -> LightpushStatus.BAD_REQUEST;
            case TOO_LARGE -> LightpushStatus.PAYLOAD_TOO_LARGE;
            case RATE_LIMITED -> LightpushStatus.TOO_MANY_REQUESTS;
            case INTERNAL -> LightpushStatus.INTERNAL_SERVER_ERROR;
        };
        return error(stream.alloc(), UNKNOWN_REQUEST_ID, status, description);
    }
}
