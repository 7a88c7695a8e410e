package io.wakurelay.services;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.crypto.PrivateKey;
import io.wakurelay.p2p.wire.Uvarint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request-response exchange every Waku service runs, on an embedded event loop with time frozen: one request,
 * one response, the write side closed, and each failure answered by itself; timers on virtual time.
 */
class ServerExchangeTest {
    private static final PeerId PEER = PeerId.fromPublicKey(PrivateKey.generateEd25519().publicKey());
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final EmbeddedChannel loop = new EmbeddedChannel();
    private final FakeStream stream = new FakeStream();
    private final List<String> handled = new ArrayList<>();

    {
        loop.freezeTime();
    }

    @AfterEach
    void close() {
        stream.written.forEach(ByteBuf::release);
        loop.finishAndReleaseAll();
    }

    /** Answers "ok:<request>"; a failure as "<FAILURE>". */
    private class Echo extends ServerExchange {
        private final boolean throwing;

        Echo(RateLimit limit, boolean throwing) {
            this(new PeerRateLimiter(limit, System::nanoTime), throwing);
        }

        Echo(PeerRateLimiter limiter, boolean throwing) {
            super(new Limits(64, TIMEOUT, limiter, new ServiceMetrics(new Meters(new SimpleMeterRegistry()), "/test/1")));
            this.throwing = throwing;
        }

        @Override
        protected void handle(Stream s, ByteBuf request) {
            String text = request.toString(StandardCharsets.UTF_8);
            handled.add(text);
            if (throwing) {
                throw new IllegalStateException("a bug");
            }
            respond(Unpooled.copiedBuffer("ok:" + text, StandardCharsets.UTF_8));
        }

        @Override
        protected ByteBuf failureResponse(Stream s, Failure failure, String description) {
            return Unpooled.copiedBuffer(failure.name(), StandardCharsets.UTF_8);
        }
    }

    private Echo open(Echo exchange) {
        exchange.onOpen(stream);
        return exchange;
    }

    private static ByteBuf frame(String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = PooledByteBufAllocator.DEFAULT.buffer();
        Uvarint.write(frame, body.length);
        return frame.writeBytes(body);
    }

    private List<String> responses() {
        return stream.written.stream().map(b -> b.toString(StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aRequestSplitAcrossReadsIsHandledOnceAndAnsweredWithTheWriteSideClosed() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), false));
        ByteBuf whole = frame("hello");
        exchange.onData(stream, whole.readRetainedSlice(3));
        exchange.onData(stream, whole.readRetainedSlice(whole.readableBytes()));
        whole.release();

        assertThat(handled).containsExactly("hello");
        assertThat(responses()).containsExactly("ok:hello");
        assertThat(stream.writeClosed).isTrue();
        exchange.onData(stream, frame("again"));
        assertThat(handled).as("a second request on the stream is not read").hasSize(1);
        exchange.onClosed(stream, null);
    }

    @Test
    void aLengthPrefixAboveTheLimitIsAnsweredTooLargeBeforeItsBodyArrives() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), false));
        ByteBuf prefix = PooledByteBufAllocator.DEFAULT.buffer();
        Uvarint.write(prefix, 1_000_000);
        exchange.onData(stream, prefix);

        assertThat(responses()).containsExactly("TOO_LARGE");
        assertThat(handled).isEmpty();
        exchange.onClosed(stream, null);
    }

    @Test
    void aPeerPastItsRateIsAnsweredWithoutReachingTheHandler() {
        PeerRateLimiter onePerMinute = new PeerRateLimiter(RateLimit.of(1, Duration.ofMinutes(1)), System::nanoTime);
        Echo first = open(new Echo(onePerMinute, false));
        first.onData(stream, frame("one"));
        FakeStream secondStream = new FakeStream();
        Echo second = new Echo(onePerMinute, false);
        second.onOpen(secondStream);
        second.onData(secondStream, frame("two"));

        assertThat(handled).containsExactly("one");
        assertThat(responses()).containsExactly("ok:one");
        assertThat(secondStream.written).extracting(b -> b.toString(StandardCharsets.UTF_8)).containsExactly("RATE_LIMITED");
        secondStream.written.forEach(ByteBuf::release);
        first.onClosed(stream, null);
        second.onClosed(secondStream, null);
    }

    @Test
    void aHandlerThatThrowsIsAnsweredAsAnInternalError() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), true));
        exchange.onData(stream, frame("boom"));

        assertThat(responses()).containsExactly("INTERNAL");
        exchange.onClosed(stream, null);
    }

    @Test
    void aStreamThatEndsBeforeAWholeRequestIsAnsweredTruncated() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), false));
        ByteBuf whole = frame("hello");
        exchange.onData(stream, whole.readRetainedSlice(3));
        whole.release();
        exchange.onRemoteClosed(stream);

        assertThat(responses()).containsExactly("TRUNCATED");
        exchange.onClosed(stream, null);
    }

    @Test
    void aPeerThatSendsNoWholeRequestInTimeIsReset() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), false));
        loop.advanceTimeBy(TIMEOUT.toMillis() - 1, TimeUnit.MILLISECONDS);
        loop.runScheduledPendingTasks();
        assertThat(stream.reset).isFalse();

        loop.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        loop.runScheduledPendingTasks();
        assertThat(stream.reset).isTrue();
        exchange.onClosed(stream, null);
    }

    @Test
    void aPeerThatKeepsItsSideOpenAfterTheAnswerIsResetAfterTheTimeout() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), false));
        loop.advanceTimeBy(TIMEOUT.toMillis() - 1, TimeUnit.MILLISECONDS);
        exchange.onData(stream, frame("late"));
        loop.advanceTimeBy(TIMEOUT.toMillis() - 1, TimeUnit.MILLISECONDS);
        loop.runScheduledPendingTasks();
        assertThat(stream.reset).as("the deadline restarts with the answer").isFalse();

        loop.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        loop.runScheduledPendingTasks();
        assertThat(stream.reset).isTrue();
        exchange.onClosed(stream, null);
    }

    @Test
    void anAnswerGivenAfterTheHandlerReturnedIsWrittenOnceAndASecondAnswerIsReleased() {
        Echo exchange = open(new Echo(RateLimit.of(0, Duration.ZERO), false) {
            @Override
            protected void handle(Stream s, ByteBuf request) {
                handled.add("deferred"); // the answer comes later, as a store query's does from its scheduler
            }
        });
        exchange.onData(stream, frame("x"));
        assertThat(responses()).isEmpty();

        exchange.respond(Unpooled.copiedBuffer("later", StandardCharsets.UTF_8));
        ByteBuf second = PooledByteBufAllocator.DEFAULT.buffer().writeByte(1);
        exchange.respond(second);

        assertThat(responses()).containsExactly("later");
        assertThat(second.refCnt()).as("a second answer is released").isZero();
        assertThat(stream.writeClosed).isTrue();
        exchange.onClosed(stream, null);
    }

    /** A stream on the embedded loop that records what is written to it. */
    private final class FakeStream implements Stream {
        final List<ByteBuf> written = new ArrayList<>();
        boolean writeClosed;
        boolean reset;

        @Override
        public String protocol() {
            return "/test/1";
        }

        @Override
        public PeerId remotePeer() {
            return PEER;
        }

        @Override
        public Connection connection() {
            return null;
        }

        @Override
        public boolean isOutbound() {
            return false;
        }

        @Override
        public EventExecutor executor() {
            return loop.eventLoop();
        }

        @Override
        public ByteBufAllocator alloc() {
            return PooledByteBufAllocator.DEFAULT;
        }

        @Override
        public Future<Void> write(ByteBuf data) {
            written.add(data);
            return loop.eventLoop().newSucceededFuture(null);
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public long queuedBytes() {
            return 0;
        }

        @Override
        public void pauseReading() {
        }

        @Override
        public void resumeReading() {
        }

        @Override
        public void closeWrite() {
            writeClosed = true;
        }

        @Override
        public void reset() {
            reset = true;
        }

        @Override
        public boolean isOpen() {
            return !reset;
        }
    }
}
