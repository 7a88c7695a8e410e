package io.wakurelay.services.store;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.services.ClientExchange;
import io.wakurelay.services.proto.StoreQueryRequest;
import io.wakurelay.services.proto.StoreQueryResponse;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one Store v3 query ({@link ClientExchange}): a status outside 2xx fails the query with it, a
 * page that does not convert is a bad response, and a good one completes the query as the archive's own
 * {@link StoreResponse}.
 */
final class StoreClientExchange extends ClientExchange<StoreResponse> {
    StoreClientExchange(StoreQueryRequest request, int maxResponseBytes, MonoSink<StoreResponse> sink) {
        super(request, maxResponseBytes, "response", "StoreQueryResponse", sink);
    }

    @Override
    protected void answered(ByteBuf message) throws InvalidProtocolBufferException {
        StoreQueryResponse response = StoreQueryResponse.parseFrom(message.nioBuffer());
        int status = response.getStatusCode();
        if (status < 200 || status > 299) {
            sink.error(new RemoteStoreException(status == 0 ? RemoteStoreException.BAD_RESPONSE : status,
                    response.hasStatusDesc() && !response.getStatusDesc().isEmpty() ? response.getStatusDesc()
                            : "the peer answered with status " + status));
            return;
        }
        StoreResponse page;
        try {
            page = StoreCodec.toStoreResponse(response);
        } catch (IllegalArgumentException e) {
            sink.error(new RemoteStoreException(RemoteStoreException.BAD_RESPONSE, "the peer's response carries " + e.getMessage()));
            return;
        }
        sink.success(page);
    }

    @Override
    protected Throwable failure(String description, Throwable cause) {
        return new RemoteStoreException(RemoteStoreException.BAD_RESPONSE, description, cause);
    }
}
