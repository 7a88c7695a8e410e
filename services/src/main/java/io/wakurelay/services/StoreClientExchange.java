package io.wakurelay.services;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.wire.Frames;
import io.wakurelay.services.proto.StoreQueryRequest;
import io.wakurelay.services.proto.StoreQueryResponse;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one Store v3 query on an outbound stream: writes the request and closes its side, reads the
 * one length-prefixed response (without waiting for the server's end), and completes the sink once. A cancelled
 * query resets its stream.
 */
final class StoreClientExchange implements StreamHandler {
    private final StoreQueryRequest request;
    private final int maxResponseBytes;
    private final MonoSink<StoreResponse> sink;
    private OneMessageReader reader;
    private Stream stream;
    private volatile boolean done;

    StoreClientExchange(StoreQueryRequest request, int maxResponseBytes, MonoSink<StoreResponse> sink) {
        this.request = request;
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
        s.write(Frames.lengthPrefixed(s.alloc(), request));
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
                answered(StoreQueryResponse.parseFrom(message.nioBuffer()));
            } catch (InvalidProtocolBufferException e) {
                fail(s, RemoteStoreException.BAD_RESPONSE, "the peer's response is not a StoreQueryResponse: " + e.getMessage());
            } finally {
                message.release();
            }
        } else if (result instanceof OneMessageReader.TooLarge tooLarge) {
            fail(s, RemoteStoreException.BAD_RESPONSE, "the peer's response is " + tooLarge.length()
                    + " bytes, more than the limit of " + tooLarge.limit());
        } else if (result instanceof OneMessageReader.Malformed malformed) {
            fail(s, RemoteStoreException.BAD_RESPONSE, "the peer's response has a " + malformed.reason());
        }
    }

    private void answered(StoreQueryResponse response) {
        done = true;
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
    public void onRemoteClosed(Stream s) {
        if (!done) {
            fail(s, RemoteStoreException.BAD_RESPONSE, reader.isPartial()
                    ? "the peer closed the stream in the middle of its response"
                    : "the peer closed the stream without a response");
        }
    }

    @Override
    public void onClosed(Stream s, Throwable cause) {
        if (reader != null) {
            reader.close();
        }
        if (!done) {
            done = true;
            sink.error(new RemoteStoreException(RemoteStoreException.BAD_RESPONSE,
                    "the stream ended without a response" + (cause == null ? "" : ": " + cause.getMessage()), cause));
        }
    }

    private void fail(Stream s, int status, String description) {
        done = true;
        sink.error(new RemoteStoreException(status, description));
        s.reset();
    }

    /** The query was cancelled (its timeout, or its subscriber): the stream is reset. From any thread. */
    void cancel() {
        done = true;
        Stream s = stream;
        if (s != null) {
            s.reset();
        }
    }
}
