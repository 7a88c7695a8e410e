package io.wakurelay.p2p.mux;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.wakurelay.p2p.connection.ProtocolHandler;
import io.wakurelay.p2p.connection.Stream;
import io.wakurelay.p2p.connection.StreamHandler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Two muxer sessions on embedded channels, the bytes of each carried to the other by {@link #pump()}. */
final class MuxerPair implements AutoCloseable {
    final EmbeddedChannel dialer;
    final EmbeddedChannel listener;
    final MuxerSession dialerSession;
    final MuxerSession listenerSession;
    final RecordingEvents dialerEvents = new RecordingEvents();
    final RecordingEvents listenerEvents = new RecordingEvents();

    interface SessionFactory {
        MuxerSession create(boolean initiator, ProtocolRegistry registry, MuxerLimits limits, MuxerEvents events);
    }

    MuxerPair(SessionFactory factory, MuxerLimits limits, Map<String, ProtocolHandler> dialerProtocols,
              Map<String, ProtocolHandler> listenerProtocols) {
        dialerSession = factory.create(true, dialerProtocols::get, limits, dialerEvents);
        listenerSession = factory.create(false, listenerProtocols::get, limits, listenerEvents);
        dialer = new EmbeddedChannel(dialerSession);
        listener = new EmbeddedChannel(listenerSession);
    }

    /** Carries bytes both ways until neither side has anything more to send. */
    void pump() {
        boolean moved = true;
        while (moved) {
            moved = carry(dialer, listener) | carry(listener, dialer);
            dialer.runPendingTasks();
            listener.runPendingTasks();
        }
    }

    /** Everything one side wrote, without delivering it (for tests that inspect frames). */
    List<ByteBuf> drainOutbound(EmbeddedChannel from) {
        from.runPendingTasks();
        List<ByteBuf> out = new ArrayList<>();
        ByteBuf b;
        while ((b = from.readOutbound()) != null) {
            out.add(b);
        }
        return out;
    }

    private static boolean carry(EmbeddedChannel from, EmbeddedChannel to) {
        boolean moved = false;
        from.runPendingTasks();
        ByteBuf b;
        while ((b = from.readOutbound()) != null) {
            moved = true;
            if (to.isActive()) {
                to.writeInbound(b);
            } else {
                b.release();
            }
        }
        return moved;
    }

    /**
     * Makes one side's connection unwritable or writable again, as a socket whose peer stopped reading would (Netty's
     * user-defined writability: the queue itself stays empty, so nothing else changes).
     */
    static void setWritable(EmbeddedChannel channel, boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
        channel.runPendingTasks();
    }

    void advanceTime(long seconds) {
        dialer.advanceTimeBy(seconds, TimeUnit.SECONDS);
        listener.advanceTimeBy(seconds, TimeUnit.SECONDS);
        dialer.runScheduledPendingTasks();
        listener.runScheduledPendingTasks();
    }

    Stream open(String protocol, StreamHandler handler) {
        var opened = dialerSession.openStream(List.of(protocol), handler);
        pump();
        assert opened.isDone() : "not negotiated";
        if (!opened.isSuccess()) {
            throw new AssertionError("open failed", opened.cause());
        }
        return opened.getNow();
    }

    @Override
    public void close() {
        dialer.finishAndReleaseAll();
        listener.finishAndReleaseAll();
    }

    static final class RecordingEvents implements MuxerEvents {
        final List<String> log = new ArrayList<>();

        @Override
        public void streamOpened(Stream stream) {
            log.add("opened " + stream.protocol());
        }

        @Override
        public void streamClosed(Stream stream) {
            log.add("closed " + stream.protocol());
        }

        @Override
        public void streamRefused(String reason) {
            log.add("refused " + reason);
        }

        @Override
        public void negotiationFailed(String reason) {
            log.add("negotiation " + reason);
        }

        @Override
        public void streamOverflow(Stream stream) {
            log.add("overflow " + stream.protocol());
        }

        @Override
        public void replyDropped(String reply) {
            log.add("dropped " + reply);
        }

        @Override
        public void readPaused(String reason) {
            log.add("paused " + reason);
        }

        @Override
        public void violation(MuxerException e) {
            log.add("violation " + e.reason());
        }
    }
}
