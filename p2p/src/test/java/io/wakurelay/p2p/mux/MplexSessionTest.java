package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.wire.Uvarint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MplexSessionTest {
    private static final String ECHO = "/test/echo/1.0.0";
    private static final int BOUND = 4 << 20;
    private static final String REPLY = "/test/reply/1.0.0";
    /** Writes back what it receives, as a protocol that answers each request does. */
    private static final ProtocolHandler REPLYING = stream -> (s, data) -> s.write(data);
    private final List<RecordingHandler> served = new ArrayList<>();
    private final ProtocolHandler recording = stream -> {
        RecordingHandler h = new RecordingHandler();
        served.add(h);
        return h;
    };
    private final MuxerPair pair = new MuxerPair(MplexSession::new,
            new MuxerLimits(4, 8, Duration.ofSeconds(10), MuxerLimits.YAMUX_INITIAL_WINDOW, 1 << 20, BOUND),
            Map.of(ECHO, recording), Map.of(ECHO, recording, REPLY, REPLYING));

    @AfterEach
    void close() {
        pair.close();
    }

    @Test
    void aStreamNegotiatesItsProtocolAndCarriesDataBothWays() {
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        stream.write(Unpooled.copiedBuffer("ping", StandardCharsets.UTF_8));
        pair.pump();
        served.get(0).stream.write(Unpooled.copiedBuffer("pong", StandardCharsets.UTF_8));
        pair.pump();

        assertThat(new String(served.get(0).receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("ping");
        assertThat(new String(client.receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("pong");
    }

    @Test
    void streamsWithTheSameIdOpenedByEachSideStayApart() {
        RecordingHandler fromDialer = new RecordingHandler();
        RecordingHandler fromListener = new RecordingHandler();
        Stream a = pair.open(ECHO, fromDialer);
        var b = pair.listenerSession.openStream(List.of(ECHO), fromListener);
        pair.pump();
        a.write(Unpooled.copiedBuffer("to listener", StandardCharsets.UTF_8));
        b.getNow().write(Unpooled.copiedBuffer("to dialer", StandardCharsets.UTF_8));
        pair.pump();

        assertThat(served).hasSize(2);
        assertThat(new String(served.get(0).receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("to listener");
        assertThat(new String(served.get(1).receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("to dialer");
    }

    @Test
    void writesLargerThanAFrameAreSplitAndArriveIntact() {
        Stream stream = pair.open(ECHO, new RecordingHandler());
        byte[] data = RecordingHandler.pattern((5 << 20) / 2, 5);
        stream.write(Unpooled.wrappedBuffer(data));
        pair.pump();

        assertThat(served.get(0).receivedBytes()).isEqualTo(data);
    }

    @Test
    void aFrameLongerThanOneMebibyteIsAProtocolViolation() {
        ByteBuf frame = Unpooled.buffer();
        Uvarint.write(frame, (1L << 3) | MplexSession.NEW_STREAM);
        Uvarint.write(frame, MplexSession.MAX_FRAME_BYTES + 1);
        pair.listener.writeInbound(frame);

        assertThat(pair.listener.isActive()).isFalse();
        assertThat(pair.listenerEvents.log).contains("violation mplex_frame_too_large");
    }

    @Test
    void anUnknownFlagIsAProtocolViolation() {
        ByteBuf frame = Unpooled.buffer();
        Uvarint.write(frame, (1L << 3) | 7);
        Uvarint.write(frame, 0);
        pair.listener.writeInbound(frame);

        assertThat(pair.listenerEvents.log).contains("violation mplex_bad_flag");
    }

    @Test
    void aPausedReaderPausesTheConnectionPastHalfItsBoundAndResumesIt() {
        Stream stream = pair.open(ECHO, new RecordingHandler());
        RecordingHandler server = served.get(0);
        server.stream.pauseReading();
        pair.pump();

        stream.write(Unpooled.wrappedBuffer(RecordingHandler.pattern(BOUND / 2 + 1, 6)));
        pair.pump();
        assertThat(pair.listener.config().isAutoRead()).isFalse();
        assertThat(server.stream.isOpen()).isTrue();

        server.stream.resumeReading();
        assertThat(pair.listener.config().isAutoRead()).isTrue();
        assertThat(server.receivedBytes()).hasSize(BOUND / 2 + 1);
    }

    @Test
    void readingResumesOnlyWhenNeitherABufferingStreamNorTheUnwritableConnectionHoldsItPaused() {
        Stream buffering = pair.open(ECHO, new RecordingHandler());
        RecordingHandler server = served.get(0);
        server.stream.pauseReading();
        Stream replying = pair.open(REPLY, new RecordingHandler());
        pair.pump();
        buffering.write(Unpooled.wrappedBuffer(RecordingHandler.pattern(BOUND / 2 + 1, 8)));
        pair.pump();
        MuxerPair.setWritable(pair.listener, false);
        replying.write(Unpooled.copiedBuffer("request", StandardCharsets.UTF_8));
        pair.pump();
        assertThat(pair.listenerEvents.log).contains("paused stream_buffered", "paused unwritable");

        server.stream.resumeReading();
        assertThat(pair.listener.config().isAutoRead()).as("still unwritable").isFalse();

        MuxerPair.setWritable(pair.listener, true);
        assertThat(pair.listener.config().isAutoRead()).isTrue();
    }

    @Test
    void aStreamOpenedWhileTheConnectionIsUnwritableIsRefusedWithoutAnyReply() {
        MuxerPair.setWritable(pair.listener, false);
        var opened = pair.dialerSession.openStream(List.of(ECHO), new RecordingHandler());
        pair.pump();

        assertThat(opened.isDone()).as("no answer, not even a reset").isFalse();
        assertThat(pair.listenerSession.openStreams()).isZero();
        assertThat(pair.listenerEvents.log).containsExactly("refused " + MuxerSession.CONNECTION_UNWRITABLE,
                "dropped " + MuxerSession.STREAM_REFUSAL);
    }

    @Test
    void aPausedReaderThatReachesItsWholeBoundHasItsStreamReset() {
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        RecordingHandler server = served.get(0);
        server.stream.pauseReading();
        pair.pump();

        // the connection's reads pause at half the bound; a peer's bytes already read still count
        stream.write(Unpooled.wrappedBuffer(RecordingHandler.pattern(BOUND + 1, 7)));
        pair.pump();

        assertThat(server.closeCause).isInstanceOf(P2pException.StreamReset.class);
        assertThat(client.closeCause).isInstanceOf(P2pException.StreamReset.class);
        assertThat(pair.listenerEvents.log).contains("overflow " + ECHO);
        assertThat(pair.listener.config().isAutoRead()).isTrue();
    }

    @Test
    void theRemoteCloseArrivesAfterTheDataAndTheStreamEndsWhenBothSidesClosed() {
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        stream.write(Unpooled.copiedBuffer("request", StandardCharsets.UTF_8));
        stream.closeWrite();
        pair.pump();
        RecordingHandler server = served.get(0);
        assertThat(server.events).containsExactly("open", "remote-closed");

        server.stream.write(Unpooled.copiedBuffer("response", StandardCharsets.UTF_8));
        server.stream.closeWrite();
        pair.pump();

        assertThat(new String(client.receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("response");
        assertThat(client.events).endsWith("remote-closed", "closed");
        assertThat(pair.dialerSession.openStreams()).isZero();
        assertThat(pair.listenerSession.openStreams()).isZero();
    }

    @Test
    void aResetEndsTheStreamOnBothSides() {
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        stream.reset();
        pair.pump();

        assertThat(served.get(0).closeCause).isInstanceOf(P2pException.StreamReset.class);
        assertThat(pair.listenerSession.openStreams()).isZero();
    }

    @Test
    void streamsBeyondTheInboundLimitAreReset() {
        for (int i = 0; i < 4; i++) {
            pair.open(ECHO, new RecordingHandler());
        }
        var fifth = pair.dialerSession.openStream(List.of(ECHO), new RecordingHandler());
        pair.pump();

        assertThat(fifth.cause()).isInstanceOf(P2pException.StreamReset.class);
        assertThat(pair.listenerEvents.log).contains("refused too_many_streams");
    }
}
