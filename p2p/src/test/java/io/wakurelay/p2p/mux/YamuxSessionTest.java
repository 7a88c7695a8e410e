package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.p2p.connection.P2pException;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.mss.MultistreamSelect;
import io.wakurelay.p2p.mss.NegotiationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class YamuxSessionTest {
    private static final String ECHO = "/test/echo/1.0.0";
    private static final String REPLY = "/test/reply/1.0.0";
    /** Writes back what it receives, as a protocol that answers each request does. */
    private static final ProtocolHandler REPLYING = stream -> (s, data) -> s.write(data);
    private final List<RecordingHandler> served = new ArrayList<>();
    private final ProtocolHandler recording = stream -> {
        RecordingHandler h = new RecordingHandler();
        served.add(h);
        return h;
    };
    private MuxerPair pair;

    private MuxerPair pair(MuxerLimits limits) {
        pair = new MuxerPair(YamuxSession::new, limits, Map.of(ECHO, recording), Map.of(ECHO, recording, REPLY, REPLYING));
        return pair;
    }

    @AfterEach
    void close() {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void aStreamNegotiatesItsProtocolAndCarriesDataBothWays() {
        pair(MuxerLimits.DEFAULTS);
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        stream.write(Unpooled.copiedBuffer("ping", StandardCharsets.UTF_8));
        pair.pump();
        assertThat(served).hasSize(1);
        served.get(0).stream.write(Unpooled.copiedBuffer("pong", StandardCharsets.UTF_8));
        pair.pump();

        assertThat(stream.protocol()).isEqualTo(ECHO);
        assertThat(new String(served.get(0).receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("ping");
        assertThat(new String(client.receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("pong");
        assertThat(pair.listenerEvents.log).containsExactly("opened " + ECHO);
    }

    @Test
    void aPausedReaderStopsTheWriterAfterOneWindowAndEverythingArrivesWhenItResumes() {
        pair(new MuxerLimits(8, 8, Duration.ofSeconds(10), MuxerLimits.YAMUX_INITIAL_WINDOW, 512 * 1024, 4 << 20));
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        pair.pump();
        RecordingHandler server = served.get(0);
        server.stream.pauseReading();
        pair.pump();

        byte[] data = RecordingHandler.pattern(1 << 20, 1);
        stream.write(Unpooled.wrappedBuffer(data));
        pair.pump();

        assertThat(server.receivedBytes()).isEmpty();
        // one window went out, less the few bytes multistream-select spent of it
        assertThat(stream.queuedBytes()).isBetween((1L << 20) - MuxerLimits.YAMUX_INITIAL_WINDOW,
                (1L << 20) - MuxerLimits.YAMUX_INITIAL_WINDOW + 64);
        assertThat(stream.isWritable()).isFalse();
        assertThat(client.events).contains("unwritable");

        server.stream.resumeReading();
        pair.pump();

        assertThat(server.receivedBytes()).isEqualTo(data);
        assertThat(stream.queuedBytes()).isZero();
        assertThat(stream.isWritable()).isTrue();
        assertThat(client.events).endsWith("writable");
    }

    @Test
    void aLargerReceiveWindowIsGrantedWithTheSynAndAck() {
        int window = 1 << 20;
        pair(new MuxerLimits(8, 8, Duration.ofSeconds(10), window, 4 << 20, 4 << 20));
        Stream stream = pair.open(ECHO, new RecordingHandler());
        RecordingHandler server = served.get(0);
        server.stream.pauseReading();
        pair.pump();

        stream.write(Unpooled.wrappedBuffer(RecordingHandler.pattern(2 * window, 2)));
        pair.pump();

        assertThat(stream.queuedBytes()).isBetween((long) window, window + 64L);
    }

    @Test
    void aPeerThatSendsPastItsCreditLosesTheConnection() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf frames = Unpooled.buffer();
        header(frames, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 1, 0);
        header(frames, YamuxSession.TYPE_DATA, 0, 1, MuxerLimits.YAMUX_INITIAL_WINDOW + 1);
        pair.listener.writeInbound(frames);

        assertThat(pair.listener.isActive()).isFalse();
        assertThat(pair.listenerEvents.log).contains("violation yamux_window_exceeded");
    }

    @Test
    void aStreamIdOfTheWrongParityIsAProtocolViolation() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf frames = Unpooled.buffer();
        header(frames, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 2, 0);
        pair.listener.writeInbound(frames);

        assertThat(pair.listener.isActive()).isFalse();
        assertThat(pair.listenerEvents.log).contains("violation yamux_bad_stream_id");
    }

    @Test
    void theRemoteCloseArrivesAfterTheDataAndTheStreamEndsWhenBothSidesClosed() {
        pair(MuxerLimits.DEFAULTS);
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        stream.write(Unpooled.copiedBuffer("last words", StandardCharsets.UTF_8));
        stream.closeWrite();
        pair.pump();
        RecordingHandler server = served.get(0);

        assertThat(new String(server.receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("last words");
        assertThat(server.events).containsExactly("open", "remote-closed");
        assertThat(stream.isOpen()).isTrue();

        server.stream.write(Unpooled.copiedBuffer("reply", StandardCharsets.UTF_8));
        server.stream.closeWrite();
        pair.pump();

        assertThat(new String(client.receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("reply");
        assertThat(client.events).endsWith("remote-closed", "closed");
        assertThat(server.events).endsWith("closed");
        assertThat(pair.dialerSession.openStreams()).isZero();
        assertThat(pair.listenerSession.openStreams()).isZero();
    }

    @Test
    void aResetEndsTheStreamOnBothSidesWithAnError() {
        pair(MuxerLimits.DEFAULTS);
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        pair.pump();
        served.get(0).stream.reset();
        pair.pump();

        assertThat(client.closeCause).isInstanceOf(P2pException.StreamReset.class).hasMessageContaining("by the peer");
        assertThat(served.get(0).closeCause).isInstanceOf(P2pException.StreamReset.class);
        assertThat(stream.isOpen()).isFalse();
        assertThat(stream.write(Unpooled.copiedBuffer("late", StandardCharsets.UTF_8)).isSuccess()).isFalse();
    }

    @Test
    void streamsBeyondTheInboundLimitAreReset() {
        pair(new MuxerLimits(2, 8, Duration.ofSeconds(10), MuxerLimits.YAMUX_INITIAL_WINDOW, 1 << 20, 4 << 20));
        pair.open(ECHO, new RecordingHandler());
        pair.open(ECHO, new RecordingHandler());
        var third = pair.dialerSession.openStream(List.of(ECHO), new RecordingHandler());
        pair.pump();

        assertThat(third.isSuccess()).isFalse();
        assertThat(third.cause()).isInstanceOf(P2pException.StreamReset.class);
        assertThat(pair.listenerEvents.log).contains("refused too_many_streams");
        assertThat(pair.listener.isActive()).isTrue();
    }

    @Test
    void aPingIsAnsweredWithItsOpaqueValue() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf ping = Unpooled.buffer();
        header(ping, YamuxSession.TYPE_PING, YamuxSession.SYN, 0, 0xCAFE);
        pair.listener.writeInbound(ping);

        List<ByteBuf> out = pair.drainOutbound(pair.listener);
        ByteBuf answer = Unpooled.wrappedBuffer(out.toArray(ByteBuf[]::new));
        assertThat(answer.readableBytes()).isEqualTo(YamuxSession.HEADER_BYTES);
        assertThat(answer.getByte(1)).isEqualTo((byte) YamuxSession.TYPE_PING);
        assertThat(answer.getShort(2)).isEqualTo((short) YamuxSession.ACK);
        assertThat(answer.getInt(8)).isEqualTo(0xCAFE);
        answer.release();
    }

    @Test
    void closingTheConnectionEndsEveryStreamAndFailsWritesWaitingForCredit() {
        pair(MuxerLimits.DEFAULTS);
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(ECHO, client);
        served.get(0).stream.pauseReading();
        pair.pump();
        var pending = stream.write(Unpooled.wrappedBuffer(RecordingHandler.pattern(1 << 20, 3)));
        pair.pump();

        pair.dialer.close();

        assertThat(pending.isDone() && !pending.isSuccess()).isTrue();
        assertThat(client.closeCause).isInstanceOf(P2pException.ConnectionClosed.class);
    }

    @Test
    void aProposalAndItsFirstDataInOneFrameReachTheHandler() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf payload = Unpooled.buffer();
        MultistreamSelect.writeMessage(payload, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(payload, ECHO);
        payload.writeCharSequence("eager request", StandardCharsets.UTF_8);
        ByteBuf frames = Unpooled.buffer();
        header(frames, YamuxSession.TYPE_DATA, YamuxSession.SYN, 1, payload.readableBytes());
        frames.writeBytes(payload);
        payload.release();
        pair.listener.writeInbound(frames);

        assertThat(served).hasSize(1);
        assertThat(new String(served.get(0).receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("eager request");
        pair.drainOutbound(pair.listener).forEach(ByteBuf::release);
    }

    @Test
    void aStreamThatAgreesOnNoProtocolInTimeIsReset() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf frames = Unpooled.buffer();
        header(frames, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 1, 0);
        pair.listener.writeInbound(frames);
        assertThat(pair.listenerSession.openStreams()).isEqualTo(1);

        pair.advanceTime(11);

        assertThat(pair.listenerSession.openStreams()).isZero();
        assertThat(pair.listenerEvents.log).contains("negotiation timeout");
        pair.drainOutbound(pair.listener).forEach(ByteBuf::release);
    }

    @Test
    void openingAProtocolThePeerDoesNotServeFailsWithNotSupported() {
        pair(MuxerLimits.DEFAULTS);
        var opened = pair.dialerSession.openStream(List.of("/nobody/1.0.0"), new RecordingHandler());
        pair.pump();

        assertThat(opened.cause()).isInstanceOf(NegotiationException.NotSupported.class);
        assertThat(pair.dialerSession.openStreams()).isZero();
        assertThat(pair.listenerSession.openStreams()).isZero();
    }

    @Test
    void dataBiggerThanAFrameIsSplitAndArrivesIntact() {
        pair(MuxerLimits.DEFAULTS);
        Stream stream = pair.open(ECHO, new RecordingHandler());
        byte[] data = RecordingHandler.pattern(200_000, 4);
        stream.write(Unpooled.wrappedBuffer(data));
        pair.pump();

        assertThat(served.get(0).receivedBytes()).isEqualTo(data);
    }

    @Test
    void aPingThatArrivesWhileThePongOfAnotherWaitsIsDroppedAndCounted() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf twoPings = Unpooled.buffer();
        header(twoPings, YamuxSession.TYPE_PING, YamuxSession.SYN, 0, 1);
        header(twoPings, YamuxSession.TYPE_PING, YamuxSession.SYN, 0, 2);
        pair.listener.writeInbound(twoPings);
        ByteBuf later = Unpooled.buffer();
        header(later, YamuxSession.TYPE_PING, YamuxSession.SYN, 0, 3);
        pair.listener.writeInbound(later);

        // the first pong was written but not yet flushed when the second ping was read: that one is dropped
        assertThat(pongs(pair.drainOutbound(pair.listener))).containsExactly(1L, 3L);
        assertThat(pair.listenerEvents.log).containsExactly("dropped " + YamuxSession.PONG);
    }

    @Test
    void aPingOnAnUnwritableConnectionIsDroppedAndCounted() {
        pair(MuxerLimits.DEFAULTS);
        MuxerPair.setWritable(pair.listener, false);
        ByteBuf ping = Unpooled.buffer();
        header(ping, YamuxSession.TYPE_PING, YamuxSession.SYN, 0, 7);
        pair.listener.writeInbound(ping);

        assertThat(pair.drainOutbound(pair.listener)).isEmpty();
        assertThat(pair.listenerEvents.log).containsExactly("dropped " + YamuxSession.PONG);

        MuxerPair.setWritable(pair.listener, true);
        ByteBuf again = Unpooled.buffer();
        header(again, YamuxSession.TYPE_PING, YamuxSession.SYN, 0, 8);
        pair.listener.writeInbound(again);
        assertThat(pongs(pair.drainOutbound(pair.listener))).containsExactly(8L);
    }

    @Test
    void aStreamOpenedWhileTheConnectionIsUnwritableIsRefusedWithoutAnyReply() {
        pair(MuxerLimits.DEFAULTS);
        MuxerPair.setWritable(pair.listener, false);
        ByteBuf syn = Unpooled.buffer();
        header(syn, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 1, 0);
        pair.listener.writeInbound(syn);

        assertThat(pair.drainOutbound(pair.listener)).isEmpty();
        assertThat(pair.listenerSession.openStreams()).isZero();
        assertThat(pair.listenerEvents.log).containsExactly("refused " + MuxerSession.CONNECTION_UNWRITABLE,
                "dropped " + MuxerSession.STREAM_REFUSAL);
        assertThat(pair.listener.isActive()).isTrue();
    }

    @Test
    void aStreamPastTheLimitIsRefusedWithAResetAlone() {
        pair(new MuxerLimits(1, 8, Duration.ofSeconds(10), MuxerLimits.YAMUX_INITIAL_WINDOW, 1 << 20, 4 << 20));
        ByteBuf syns = Unpooled.buffer();
        header(syns, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 1, 0);
        pair.listener.writeInbound(syns);
        pair.drainOutbound(pair.listener).forEach(ByteBuf::release);
        ByteBuf second = Unpooled.buffer();
        header(second, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 3, 0);
        pair.listener.writeInbound(second);

        ByteBuf answer = Unpooled.wrappedBuffer(pair.drainOutbound(pair.listener).toArray(ByteBuf[]::new));
        assertThat(answer.readableBytes()).isEqualTo(YamuxSession.HEADER_BYTES);
        assertThat(answer.getShort(2)).isEqualTo((short) YamuxSession.RST);
        assertThat(answer.getInt(4)).isEqualTo(3);
        answer.release();
    }

    @Test
    void aProposalThatArrivesWhileTheConnectionIsUnwritableEndsTheStreamUnanswered() {
        pair(MuxerLimits.DEFAULTS);
        ByteBuf syn = Unpooled.buffer();
        header(syn, YamuxSession.TYPE_WINDOW_UPDATE, YamuxSession.SYN, 1, 0);
        pair.listener.writeInbound(syn);
        pair.drainOutbound(pair.listener).forEach(ByteBuf::release);
        MuxerPair.setWritable(pair.listener, false);

        ByteBuf proposal = Unpooled.buffer();
        MultistreamSelect.writeMessage(proposal, MultistreamSelect.PROTOCOL_ID);
        MultistreamSelect.writeMessage(proposal, ECHO);
        ByteBuf frame = Unpooled.buffer();
        header(frame, YamuxSession.TYPE_DATA, 0, 1, proposal.readableBytes());
        frame.writeBytes(proposal);
        proposal.release();
        pair.listener.writeInbound(frame);

        assertThat(pair.drainOutbound(pair.listener)).isEmpty();
        assertThat(pair.listenerSession.openStreams()).isZero();
        assertThat(served).isEmpty();
        assertThat(pair.listenerEvents.log).containsExactly("dropped " + MuxedStream.NEGOTIATION_ANSWER);
    }

    @Test
    void aReadThatWritesToAnUnwritableConnectionPausesReadingUntilItIsWritableAgain() {
        pair(MuxerLimits.DEFAULTS);
        RecordingHandler client = new RecordingHandler();
        Stream stream = pair.open(REPLY, client);
        MuxerPair.setWritable(pair.listener, false);

        stream.write(Unpooled.copiedBuffer("request", StandardCharsets.UTF_8));
        pair.pump();

        assertThat(pair.listener.config().isAutoRead()).isFalse();
        assertThat(pair.listenerEvents.log).contains("paused unwritable");

        MuxerPair.setWritable(pair.listener, true);

        assertThat(pair.listener.config().isAutoRead()).isTrue();
        assertThat(new String(client.receivedBytes(), StandardCharsets.UTF_8)).isEqualTo("request");
    }

    @Test
    void aReadThatWritesOnlyCreditLeavesAnUnwritableConnectionReading() {
        pair(MuxerLimits.DEFAULTS);
        Stream stream = pair.open(ECHO, new RecordingHandler());
        MuxerPair.setWritable(pair.listener, false);
        // more than half a window: the reader gives the credit back while it reads
        byte[] data = RecordingHandler.pattern(200_000, 5);

        stream.write(Unpooled.wrappedBuffer(data));
        pair.pump();

        assertThat(served.get(0).receivedBytes()).isEqualTo(data);
        assertThat(pair.listener.config().isAutoRead()).isTrue();
        assertThat(pair.listenerEvents.log).doesNotContain("paused unwritable");
    }

    /** The opaque values of the pongs among {@code frames} (released here). */
    private static List<Long> pongs(List<ByteBuf> frames) {
        ByteBuf all = Unpooled.wrappedBuffer(frames.toArray(ByteBuf[]::new));
        List<Long> opaque = new ArrayList<>();
        while (all.readableBytes() >= YamuxSession.HEADER_BYTES) {
            if (all.getByte(all.readerIndex() + 1) == YamuxSession.TYPE_PING
                    && all.getShort(all.readerIndex() + 2) == YamuxSession.ACK) {
                opaque.add(all.getUnsignedInt(all.readerIndex() + 8));
            }
            all.skipBytes(YamuxSession.HEADER_BYTES);
        }
        all.release();
        return opaque;
    }

    static void header(ByteBuf out, int type, int flags, int streamId, long length) {
        out.writeByte(0).writeByte(type).writeShort(flags).writeInt(streamId).writeInt((int) length);
    }
}
