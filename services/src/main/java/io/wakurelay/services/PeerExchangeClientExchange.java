package io.wakurelay.services;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.services.proto.PeerExchangeQuery;
import io.wakurelay.services.proto.PeerExchangeResponse;
import io.wakurelay.services.proto.PeerExchangeRpc;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one peer exchange request on an outbound stream: writes the query and closes its side, reads the
 * one length-prefixed answer (without waiting for the server's end) and completes the sink once with the response
 * when its status is 200 (or absent with records, as nwaku reads older servers). A cancelled request resets its
 * stream.
 */
final class PeerExchangeClientExchange implements StreamHandler {
    private final long numPeers;
    private final int maxResponseBytes;
    private final MonoSink<PeerExchangeResponse> sink;
    private OneMessageReader reader;
    private Stream stream;
    private volatile boolean done;

    PeerExchangeClientExchange(long numPeers, int maxResponseBytes, MonoSink<PeerExchangeResponse> sink) {
        this.numPeers = numPeers;
        this.maxResponseBytes = maxResponseBytes;
        this.sink = sink;
    }

    @Override
    public void onOpen(Stream s) {
        stream = s;
        if (done) { // cancelled while the stream was being negotiated
            s.reset();
            return;
        }
        reader = new OneMessageReader(s.alloc(), maxResponseBytes);
        PeerExchangeRpc rpc = PeerExchangeRpc.newBuilder()
                .setQuery(PeerExchangeQuery.newBuilder().setNumPeers(numPeers)).build();
        s.write(Frames.lengthPrefixed(s.alloc(), rpc));
        s.closeWrite();
    }

    @Override
    public void onData(Stream s, ByteBuf data) {
        if (done) {
            data.release();
            return;
        }
        OneMessageReader.Result result = reader.add(data);
        if (result instanceof OneMessageReader.Complete complete) {
            ByteBuf message = complete.message();
            try {
                answered(s, PeerExchangeRpc.parseFrom(message.nioBuffer()));
            } catch (InvalidProtocolBufferException e) {
                fail(s, "the peer's answer is not a PeerExchangeRpc: " + e.getMessage());
            } finally {
                message.release();
            }
        } else if (result instanceof OneMessageReader.TooLarge tooLarge) {
            fail(s, "the peer's answer is " + tooLarge.length() + " bytes, more than the limit of " + tooLarge.limit());
        } else if (result instanceof OneMessageReader.Malformed malformed) {
            fail(s, "the peer's answer has a " + malformed.reason());
        }
    }

    private void answered(Stream s, PeerExchangeRpc rpc) {
        if (!rpc.hasResponse()) {
            fail(s, "the peer's PeerExchangeRpc carries no response");
            return;
        }
        PeerExchangeResponse response = rpc.getResponse();
        int status = response.hasStatusCode() ? response.getStatusCode()
                : response.getPeerInfosCount() > 0 ? PeerExchangeStatus.SUCCESS.code() : 0;
        done = true;
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
    public void onRemoteClosed(Stream s) {
        if (!done) {
            fail(s, reader.isPartial() ? "the peer closed the stream in the middle of its answer"
                    : "the peer closed the stream without an answer");
        }
    }

    @Override
    public void onClosed(Stream s, Throwable cause) {
        if (reader != null) {
            reader.close();
        }
        if (!done) {
            done = true;
            sink.error(new PeerExchangeException(PeerExchangeException.Kind.BAD_RESPONSE, 0,
                    "the stream ended without an answer" + (cause == null ? "" : ": " + cause.getMessage()), cause));
        }
    }

    private void fail(Stream s, String description) {
        done = true;
        sink.error(new PeerExchangeException(PeerExchangeException.Kind.BAD_RESPONSE, description));
        s.reset();
    }

    /** The request was cancelled (its timeout, or its subscriber): the stream is reset. From any thread. */
    void cancel() {
        done = true;
        Stream s = stream;
        if (s != null) {
            s.reset();
        }
    }
}
