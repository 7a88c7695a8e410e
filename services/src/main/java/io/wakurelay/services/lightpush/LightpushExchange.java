package io.wakurelay.services.lightpush;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.services.ServerExchange;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.services.proto.LightPushResponse;

/**
 * One lightpush v3 request on an inbound stream: decode it, push it ({@link LightpushService#push}) and answer with
 * the status and the number of peers it was relayed to. Runs on the stream's event loop: a push does not block.
 */
final class LightpushExchange extends ServerExchange {
    private final LightpushService service;
    private final LightpushMetrics metrics;

    LightpushExchange(LightpushService service) {
        super(service.exchangeLimits());
        this.service = service;
        this.metrics = service.metrics();
    }

    @Override
    protected void handle(Stream stream, ByteBuf request) {
        LightPushRequest decoded = decode(stream, request, LightPushRequest.parser(), "LightPushRequest");
        if (decoded == null) {
            return;
        }
        metrics.requests.increment();
        String id = decoded.getRequestId();
        ByteBufAllocator alloc = stream.alloc();
        service.push(decoded.hasPubsubTopic() ? decoded.getPubsubTopic() : null, decoded.hasMessage() ? decoded.getMessage() : null)
                .subscribe(outcome -> respond(response(alloc, id, outcome)));
    }

    private static ByteBuf response(ByteBufAllocator alloc, String id, LightpushOutcome outcome) {
        LightPushResponse.Builder response = LightPushResponse.newBuilder().setRequestId(id).setStatusCode(outcome.statusCode());
        if (outcome.isSuccess()) {
            response.setRelayPeerCount(outcome.relayPeerCount());
        } else {
            response.setStatusDesc(outcome.statusDesc());
        }
        return Frames.lengthPrefixed(alloc, response.build());
    }

    private ByteBuf error(ByteBufAllocator alloc, String id, LightpushStatus status, String description) {
        metrics.error(status);
        return response(alloc, id, LightpushOutcome.error(status, description));
    }

    @Override
    protected ByteBuf failureResponse(Stream stream, Failure failure, String description) {
        LightpushStatus status = switch (failure) {
            case MALFORMED, TRUNCATED -> LightpushStatus.BAD_REQUEST;
            case TOO_LARGE -> LightpushStatus.PAYLOAD_TOO_LARGE;
            case RATE_LIMITED -> LightpushStatus.TOO_MANY_REQUESTS;
            case INTERNAL -> LightpushStatus.INTERNAL_SERVER_ERROR;
        };
        return error(stream.alloc(), UNKNOWN_REQUEST_ID, status, description);
    }
}
