package io.wakurelay.services.peerexchange;

import io.wakurelay.services.ClientExchange;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.services.proto.PeerExchangeQuery;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerExchangeRpc;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one peer exchange request ({@link ClientExchange}): the answer completes the request when its
 * status is 200 (or absent with records, as nwaku reads older servers), and fails it with its status otherwise.
 */
final class PeerExchangeClientExchange extends ClientExchange<PeerExchangeResponse> {
    PeerExchangeClientExchange(long numPeers, int maxResponseBytes, MonoSink<PeerExchangeResponse> sink) {
        super(PeerExchangeRpc.newBuilder().setQuery(PeerExchangeQuery.newBuilder().setNumPeers(numPeers)).build(),
                maxResponseBytes, "answer", "PeerExchangeRpc", sink);
    }

    @Override
    protected void answered(ByteBuf message) throws InvalidProtocolBufferException {
        PeerExchangeRpc rpc = PeerExchangeRpc.parseFrom(message.nioBuffer());
        if (!rpc.hasResponse()) {
            sink.error(failure("the peer's PeerExchangeRpc carries no response", null));
            return;
        }
        PeerExchangeResponse response = rpc.getResponse();
        int status = response.hasStatusCode() ? response.getStatusCode()
                : response.getPeerInfosCount() > 0 ? PeerExchangeStatus.SUCCESS.code() : 0;
        if (status == PeerExchangeStatus.SUCCESS.code()) {
            sink.success(response);
            return;
        }
        // js-waku writes no status; an empty answer without one is nwaku's 503 too
        String description = response.hasStatusDesc() && !response.getStatusDesc().isEmpty() ? response.getStatusDesc()
                : status == 0 ? "the peer answered no records and no status" : "the peer answered with status " + status;
        sink.error(new PeerExchangeException(PeerExchangeException.Kind.ERROR_STATUS, status, description, null));
    }

    @Override
    protected Throwable failure(String description, Throwable cause) {
        return new PeerExchangeException(PeerExchangeException.Kind.BAD_RESPONSE, 0, description, cause);
    }
}
