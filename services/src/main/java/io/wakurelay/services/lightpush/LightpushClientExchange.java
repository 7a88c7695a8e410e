package io.wakurelay.services.lightpush;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.services.ClientExchange;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.services.proto.LightPushResponse;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one lightpush v3 push ({@link ClientExchange}), judged as nwaku's client judges the answer
 * ({@code waku_lightpush/client.nim}, {@code toPushResult}): an error status is passed on with its description; a
 * success that reached no relay peer is 505; an answer to another request id is 500 unless it is a 429, which
 * carries none.
 */
final class LightpushClientExchange extends ClientExchange<LightpushOutcome> {
    private final String requestId;

    LightpushClientExchange(LightPushRequest request, int maxResponseBytes, MonoSink<LightpushOutcome> sink) {
        super(request, maxResponseBytes, "answer", "LightPushResponse", sink);
        this.requestId = request.getRequestId();
    }

    @Override
    protected void answered(ByteBuf message) throws InvalidProtocolBufferException {
        LightPushResponse response = LightPushResponse.parseFrom(message.nioBuffer());
        int status = response.getStatusCode();
        String desc = response.hasStatusDesc() ? response.getStatusDesc() : null;
        if (status < 100 || status > 599) {
            // nwaku maps a code that is no HTTP status to 500 (lightpush/handlers.nim); REST sends it as the status
            sink.success(new LightpushOutcome(LightpushStatus.INTERNAL_SERVER_ERROR.code(),
                    "the service node answered status " + status + (desc == null ? "" : ": " + desc), 0));
        } else if (!response.getRequestId().equals(requestId) && status != LightpushStatus.TOO_MANY_REQUESTS.code()) {
            sink.success(new LightpushOutcome(LightpushStatus.INTERNAL_SERVER_ERROR.code(), "response failure, requestId mismatch", 0));
        } else if (status != LightpushStatus.SUCCESS.code()) {
            sink.success(new LightpushOutcome(status, desc, 0));
        } else if (response.getRelayPeerCount() == 0) {
            // nwaku: "publishing to zero peers is an error even if the service node says it succeeded"
            sink.success(new LightpushOutcome(LightpushStatus.NO_PEERS_TO_RELAY.code(), desc, 0));
        } else {
            sink.success(LightpushOutcome.success(response.getRelayPeerCount()));
        }
    }

    @Override
    protected Throwable failure(String description, Throwable cause) {
        return new LightpushClientException(LightpushClient.Result.BAD_RESPONSE,
                LightpushOutcome.error(LightpushStatus.INTERNAL_SERVER_ERROR, "Failed to read response from peer: " + description), cause);
    }
}
