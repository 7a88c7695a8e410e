package io.wakurelay.p2p.mux;

import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.util.AttributeKey;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The reasons a connection is not being read, each held and released on its own: reading (Netty's auto-read) stops
 * when the first reason is held and resumes only when none is. mplex's buffered streams and the connection's own
 * unwritability both pause reading; without this, one reason ending would resume reading the other still needs
 * paused. The WebSocket transport's frames pause for the same reason as the muxer does ({@link Reason#UNWRITABLE}:
 * a ping answered on an unwritable connection), so a connection has one {@code ReadPauses}, shared by whoever pauses
 * it ({@link #of}). On the connection's event loop.
 */
public final class ReadPauses {
    private static final AttributeKey<ReadPauses> KEY = AttributeKey.valueOf(ReadPauses.class, "readPauses");

    /** Why reading is paused; the label is the metric's ({@code libp2p_read_pauses_total{reason}}). */
    public enum Reason {
        /** An mplex stream buffered past half its bound for a paused reader ({@link MplexSession}). */
        STREAM_BUFFERED("stream_buffered"),
        /** What the peer sent made this node write to a connection already past its high water mark. */
        UNWRITABLE("unwritable");

        private final String label;

        Reason(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final ChannelConfig config;
    private final Consumer<String> counted;
    private final Set<Reason> held = EnumSet.noneOf(Reason.class);

    ReadPauses(ChannelConfig config, MuxerEvents events) {
        this(config, events::readPaused);
    }

    private ReadPauses(ChannelConfig config, Consumer<String> counted) {
        this.config = config;
        this.counted = counted;
    }

    /**
     * The read pauses of {@code channel}, made on first use; {@code counted} hears of each pause (with its reason's
     * label) when this call makes them. On the channel's event loop.
     */
    public static ReadPauses of(Channel channel, Consumer<String> counted) {
        ReadPauses pauses = channel.attr(KEY).get();
        if (pauses == null) {
            pauses = new ReadPauses(channel.config(), counted);
            channel.attr(KEY).set(pauses);
        }
        return pauses;
    }

    /** Pauses reading for {@code reason} (counted once per pause; holding it again changes nothing). */
    public void hold(Reason reason) {
        if (held.add(reason)) {
            counted.accept(reason.label());
            config.setAutoRead(false);
        }
    }

    /** Ends the pause for {@code reason}; reading resumes (Netty reads at once) when no other reason holds. */
    public void release(Reason reason) {
        if (held.remove(reason) && held.isEmpty()) {
            config.setAutoRead(true);
        }
    }

    public boolean isHeld(Reason reason) {
        return held.contains(reason);
    }
}
