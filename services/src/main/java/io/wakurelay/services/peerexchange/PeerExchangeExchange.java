package io.wakurelay.services.peerexchange;

import io.wakurelay.services.ServerExchange;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerExchangeRpc;
import io.wakurelay.services.proto.PeerInfo;

import java.util.List;

/**
 * One peer exchange request on an inbound stream: decode it, take the records ({@link PeerExchangeService#recordsFor})
 * and answer. Runs on the stream's event loop: the record source does not block.
 */
final class PeerExchangeExchange extends ServerExchange {
    private final PeerExchangeService service;
    private final PeerExchangeMetrics metrics;

    PeerExchangeExchange(PeerExchangeService service) {
        super(service.exchangeLimits());
        this.service = service;
        this.metrics = service.metrics();
    }

    @Override
    protected void handle(Stream stream, ByteBuf request) {
        PeerExchangeRpc decoded = decode(stream, request, PeerExchangeRpc.parser(), "PeerExchangeRpc");
        if (decoded == null) {
            return;
        }
        if (!decoded.hasQuery()) {
            // as nwaku: an RPC without its request field does not decode
            respond(error(stream, PeerExchangeStatus.BAD_REQUEST, "the PeerExchangeRpc carries no query"));
            return;
        }
        if (service.closing()) {
            respond(error(stream, PeerExchangeStatus.SERVICE_UNAVAILABLE, "peer exchange is shutting down"));
            return;
        }
        List<byte[]> records = service.recordsFor(stream.remotePeer(), decoded.getQuery().getNumPeers());
        PeerExchangeResponse.Builder response = PeerExchangeResponse.newBuilder()
                .setStatusCode(PeerExchangeStatus.SUCCESS.code());
        for (byte[] record : records) {
            response.addPeerInfos(PeerInfo.newBuilder().setEnr(ByteString.copyFrom(record)));
        }
        metrics.peersSent.increment(records.size());
        respond(Frames.lengthPrefixed(stream.alloc(), PeerExchangeRpc.newBuilder().setResponse(response).build()));
    }

    private ByteBuf error(Stream stream, PeerExchangeStatus status, String description) {
        metrics.error(status);
        PeerExchangeResponse response = PeerExchangeResponse.newBuilder().setStatusCode(status.code())
                .setStatusDesc(description).build();
        return Frames.lengthPrefixed(stream.alloc(), PeerExchangeRpc.newBuilder().setResponse(response).build());
    }

    @Override
    protected ByteBuf failureResponse(Stream stream, Failure failure, String description) {
        PeerExchangeStatus status = switch (failure) {
            case MALFORMED, TRUNCATED, TOO_LARGE -> PeerExchangeStatus.BAD_REQUEST;
            case RATE_LIMITED -> PeerExchangeStatus.TOO_MANY_REQUESTS;
            case INTERNAL -> PeerExchangeStatus.SERVICE_UNAVAILABLE; // nwaku's codes have no 500
        };
        return error(stream, status, description);
    }
}
