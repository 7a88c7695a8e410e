package io.wakurelay.services;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;
import io.wakurelay.p2p.wire.Uvarint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The server side of one request-response exchange on an inbound stream, as Waku's store, lightpush and
 * filter-subscribe protocols run it: the peer writes one length-prefixed request; this side writes one
 * length-prefixed response and closes its write side (js-waku reads until that end).
 *
 * <p>What can go wrong is answered here, the same way for every protocol, with the protocol's own status
 * ({@link #failureResponse}): a length prefix above the limit (refused before the body is buffered), a malformed
 * prefix, a stream that ends before a whole request, a peer past its rate limit, a handler that throws. A peer that
 * does not finish its request within the timeout, or does not close its side within the timeout after the
 * response, gets its stream reset. Nothing is thrown out of a callback, and every buffer is released.
 *
 * <p>Callbacks run on the stream's event loop. {@link #handle} runs there too and must not block: work that
 * blocks hops to another scheduler and calls {@link #respond} from there (it hops back).
 */
public abstract class ServerExchange implements StreamHandler {
    private static final Logger log = LoggerFactory.getLogger(ServerExchange.class);
    /** The request id of an answer to a request that could not be read (as nwaku). */
    protected static final String UNKNOWN_REQUEST_ID = "N/A";

    /** What the exchange answers by itself. */
    public enum Failure {
        /** The length prefix is not a valid uvarint, or the request does not parse. */
        MALFORMED,
        /** The length prefix announces more than the limit. */
        TOO_LARGE,
        /** The peer closed its side before a whole request. */
        TRUNCATED,
        /** The peer is past its rate limit. */
        RATE_LIMITED,
        /** The handler failed: a bug. */
        INTERNAL
    }

    private enum State { READING, HANDLING, RESPONDED }

    private final int maxRequestBytes;
    private final Duration timeout;
    private final PeerRateLimiter rateLimiter;
    private final ServiceMetrics metrics;
    private Stream stream;
    private OneMessageReader reader;
    private ScheduledFuture<?> deadline;
    private State state = State.READING;
    private long requestNanos;
    private Runnable afterResponse;

    protected ServerExchange(Limits limits) {
        this.maxRequestBytes = limits.maxRequestBytes();
        this.timeout = limits.timeout();
        this.rateLimiter = limits.rateLimiter();
        this.metrics = limits.metrics();
    }

    /**
     * What bounds a service's exchanges, the same for each of its requests: each service makes it once.
     *
     * @param maxRequestBytes the largest request read
     * @param timeout         the longest a whole request may take to arrive
     * @param rateLimiter     each peer's rate
     * @param metrics         the service's meters
     */
    public record Limits(int maxRequestBytes, Duration timeout, PeerRateLimiter rateLimiter, ServiceMetrics metrics) {
    }

    /**
     * A whole request arrived (and the peer is within its rate). Called on the event loop; {@code request} is
     * released when this returns. Must lead to exactly one {@link #respond}, now or later, from any thread.
     */
    protected abstract void handle(Stream stream, ByteBuf request);

    /** The protocol's response to a failure the exchange detected (counted by the subclass as it likes). */
    protected abstract ByteBuf failureResponse(Stream stream, Failure failure, String description);

    /** The request decoded by {@code parser}, or null when it does not parse: it is then answered as malformed. */
    protected final <T> T decode(Stream stream, ByteBuf request, Parser<T> parser, String type) {
        try {
            return parser.parseFrom(request.nioBuffer());
        } catch (InvalidProtocolBufferException e) {
            respond(failureResponse(stream, Failure.MALFORMED, "the request is not a " + type + ": " + e.getMessage()));
            return null;
        }
    }

    /** The peer did not send a whole request in time; its stream is reset after this. */
    protected void onTimeout() {
    }

    @Override
    public final void onOpen(Stream s) {
        stream = s;
        reader = new OneMessageReader(s.alloc(), maxRequestBytes);
        deadline = schedule();
    }

    @Override
    public final void onData(Stream s, ByteBuf data) {
        if (state != State.READING) {
            data.release(); // a second request, or the rest of an oversized one: not read
            return;
        }
        OneMessageReader.Result result = reader.add(data);
        if (result instanceof OneMessageReader.Complete complete) {
            received(complete.message());
        } else if (result instanceof OneMessageReader.TooLarge tooLarge) {
            fail(Failure.TOO_LARGE, "the request is " + tooLarge.length() + " bytes, the limit is " + tooLarge.limit());
        } else if (result instanceof OneMessageReader.Malformed malformed) {
            fail(Failure.MALFORMED, malformed.reason());
        }
    }

    @Override
    public final void onRemoteClosed(Stream s) {
        if (state == State.READING) {
            fail(Failure.TRUNCATED, reader.isPartial()
                    ? "the stream ended before the whole request (" + reader.buffered() + " bytes received)"
                    : "the stream ended without a request");
        }
    }

    @Override
    public final void onClosed(Stream s, Throwable cause) {
        if (reader != null) {
            reader.close();
        }
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (afterResponse != null) {
            afterResponse.run();
        }
    }

    private void received(ByteBuf request) {
        state = State.HANDLING;
        metrics.bytesIn.increment(request.readableBytes() + Uvarint.size(request.readableBytes()));
        if (!rateLimiter.tryAcquire(stream.remotePeer())) {
            request.release();
            metrics.rejected.increment();
            respondOnLoop(failureResponse(stream, Failure.RATE_LIMITED, "too many requests from this peer"), null);
            return;
        }
        metrics.served.increment();
        requestNanos = System.nanoTime();
        try {
            handle(stream, request);
        } catch (RuntimeException e) {
            log.atWarn().addKeyValue("protocol", String.valueOf(stream.protocol()))
                    .addKeyValue("peer", String.valueOf(stream.remotePeer())).setCause(e)
                    .log("handler failed on a request");
            respondOnLoop(failureResponse(stream, Failure.INTERNAL, "internal error"), null);
        } finally {
            request.release();
        }
    }

    private void fail(Failure failure, String description) {
        state = State.HANDLING;
        respondOnLoop(failureResponse(stream, failure, description), null);
    }

    /** Writes the one response and closes this side; from any thread. A second response, or one for a stream that ended, is released. */
    protected final void respond(ByteBuf frame) {
        respond(frame, null);
    }

    /**
     * {@link #respond(ByteBuf)}, then {@code whenDone} once the response is written, or could not be (the stream ended,
     * the response was a second one): exactly once, on whichever thread that is known. For what the response holds
     * until it is on its way (a store page's query slot).
     */
    protected final void respond(ByteBuf frame, Runnable whenDone) {
        Runnable once = whenDone == null ? null : new Once(whenDone);
        if (stream.executor().inEventLoop()) {
            respondOnLoop(frame, once);
            return;
        }
        try {
            stream.executor().execute(() -> respondOnLoop(frame, once));
        } catch (RejectedExecutionException e) {
            frame.release(); // the host is shut down: the stream is gone with it
            if (once != null) {
                once.run();
            }
        }
    }

    private void respondOnLoop(ByteBuf frame, Runnable whenDone) {
        if (state == State.RESPONDED || !stream.isOpen()) {
            frame.release();
            if (whenDone != null) {
                whenDone.run();
            }
            return;
        }
        state = State.RESPONDED;
        metrics.bytesOut.increment(frame.readableBytes());
        if (whenDone != null) {
            afterResponse = whenDone; // also run if the stream ends before the write is done
            stream.write(frame).addListener(f -> whenDone.run());
        } else {
            stream.write(frame);
        }
        stream.closeWrite();
        if (requestNanos != 0) { // a served request (not one refused before its handler)
            metrics.handling.record(System.nanoTime() - requestNanos, TimeUnit.NANOSECONDS);
        }
        if (deadline != null) {
            deadline.cancel(false);
            deadline = schedule(); // now for the peer to close its side
        }
    }

    /** Runs its task the first time it is run, whoever runs it. */
    private static final class Once extends AtomicBoolean implements Runnable {
        private static final long serialVersionUID = 1L;
        private final transient Runnable task;

        Once(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (compareAndSet(false, true)) {
                task.run();
            }
        }
    }

    private ScheduledFuture<?> schedule() {
        return stream.executor().schedule(this::deadlinePassed, timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void deadlinePassed() {
        if (!stream.isOpen()) {
            return;
        }
        switch (state) {
            case READING -> {
                log.atDebug().addKeyValue("protocol", String.valueOf(stream.protocol()))
                        .addKeyValue("peer", String.valueOf(stream.remotePeer())).addKeyValue("timeout", String.valueOf(timeout))
                        .log("no whole request in time; resetting");
                onTimeout();
                stream.reset();
            }
            case RESPONDED -> stream.reset(); // the peer keeps its side open after the answer
            case HANDLING -> deadline = schedule(); // the answer is being prepared
        }
    }
}
