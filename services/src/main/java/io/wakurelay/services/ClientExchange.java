package io.wakurelay.services;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.wire.Frames;
import reactor.core.publisher.MonoSink;

/**
 * The client side of one request-response exchange on an outbound stream, as every Waku service client has it:
 * writes the request and closes its side, reads the one length-prefixed answer under a size bound (without waiting
 * for the server's end), and completes the sink once: with the answer, or with the failure {@link #failure} makes
 * of what went wrong. A cancelled exchange resets its stream. The protocol's part is {@link #answered}.
 *
 * @param <T> what the sink is given
 */
public abstract class ClientExchange<T> implements StreamHandler {
    private final MessageLite request;
    private final int maxResponseBytes;
    private final String answerName;
    private final String answerType;
    protected final MonoSink<T> sink;
    private OneMessageReader reader;
    private Stream stream;
    private volatile boolean done;

    /**
     * @param answerName what the answer is called in failures ("response", "answer")
     * @param answerType the protobuf message the answer must be
     */
    protected ClientExchange(MessageLite request, int maxResponseBytes, String answerName, String answerType,
                             MonoSink<T> sink) {
        this.request = request;
        this.maxResponseBytes = maxResponseBytes;
        this.answerName = answerName;
        this.answerType = answerType;
        this.sink = sink;
    }

    /** The answer's bytes, whole: parse them and complete the sink (the exchange is done either way). */
    protected abstract void answered(ByteBuf message) throws InvalidProtocolBufferException;

    /** The failure for a bad or missing answer, with its description. */
    protected abstract Throwable failure(String description, Throwable cause);

    @Override
    public final void onOpen(Stream s) {
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
    public final void onData(Stream s, ByteBuf data) {
        if (done) {
            data.release();
            return;
        }
        OneMessageReader.Result result = reader.add(data);
        if (result instanceof OneMessageReader.Complete complete) {
            ByteBuf message = complete.message();
            try {
                done = true;
                answered(message);
            } catch (InvalidProtocolBufferException e) {
                fail(s, "the peer's " + answerName + " is not a " + answerType + ": " + e.getMessage());
            } finally {
                message.release();
            }
        } else if (result instanceof OneMessageReader.TooLarge tooLarge) {
            fail(s, "the peer's " + answerName + " is " + tooLarge.length() + " bytes, more than the limit of "
                    + tooLarge.limit());
        } else if (result instanceof OneMessageReader.Malformed malformed) {
            fail(s, "the peer's " + answerName + " has a " + malformed.reason());
        }
    }

    @Override
    public final void onRemoteClosed(Stream s) {
        if (!done) {
            fail(s, reader.isPartial() ? "the peer closed the stream in the middle of its " + answerName
                    : "the peer closed the stream without " + article() + answerName);
        }
    }

    @Override
    public final void onClosed(Stream s, Throwable cause) {
        if (reader != null) {
            reader.close();
        }
        if (!done) {
            done = true;
            sink.error(failure("the stream ended without " + article() + answerName
                    + (cause == null ? "" : ": " + cause.getMessage()), cause));
        }
    }

    private String article() {
        return answerName.matches("[aeiou].*") ? "an " : "a ";
    }

    private void fail(Stream s, String description) {
        done = true;
        sink.error(failure(description, null));
        s.reset();
    }

    /** The exchange was cancelled (its timeout, or its subscriber): the stream is reset. From any thread. */
    public final void cancel() {
        done = true;
        Stream s = stream;
        if (s != null) {
            s.reset();
        }
    }
}
