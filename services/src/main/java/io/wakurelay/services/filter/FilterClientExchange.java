package io.wakurelay.services.filter;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.services.ClientExchange;
import io.wakurelay.services.filter.FilterRequestException.Kind;
import io.wakurelay.services.proto.FilterSubscribeRequest;
import io.wakurelay.services.proto.FilterSubscribeResponse;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one filter-subscribe request ({@link ClientExchange}), judged as nwaku's filter client judges
 * the answer: a request id other than the request's is a bad response (except on a 429, which a rate limiter sends
 * before it reads the id), a status other than 200 fails with nwaku's kind for it and the service node's words.
 */
final class FilterClientExchange extends ClientExchange<Void> {
    private final String requestId;

    FilterClientExchange(FilterSubscribeRequest request, int maxResponseBytes, MonoSink<Void> sink) {
        super(request, maxResponseBytes, "response", "FilterSubscribeResponse", sink);
        this.requestId = request.getRequestId();
    }

    @Override
    protected void answered(ByteBuf message) throws InvalidProtocolBufferException {
        FilterSubscribeResponse response = FilterSubscribeResponse.parseFrom(message.nioBuffer());
        int status = response.getStatusCode();
        if (status != Kind.TOO_MANY_REQUESTS.code() && !response.getRequestId().equals(requestId)) {
            sink.error(new FilterRequestException(Kind.BAD_RESPONSE, "requestId mismatch"));
            return;
        }
        if (status != 200) {
            String cause = response.hasStatusDesc() ? response.getStatusDesc() : "filter subscribe error";
            sink.error(new FilterRequestException(Kind.of(status), cause));
            return;
        }
        sink.success();
    }

    @Override
    protected Throwable failure(String description, Throwable cause) {
        return new FilterRequestException(Kind.BAD_RESPONSE, description, cause);
    }
}
