package io.wakurelay.p2p.mux;

import io.netty.channel.ChannelConfig;

import java.util.EnumSet;
import java.util.Set;

/**
 * The reasons a connection is not being read, each held and released on its own: reading (Netty's auto-read) stops
 * when the first reason is held and resumes only when none is. mplex's buffered streams and the connection's own
 * unwritability both pause reading; without this, one reason ending would resume reading the other still needs
 * paused. On the connection's event loop.
 */
final class ReadPauses {
    /** Why reading is paused; the label is the metric's ({@code libp2p_read_pauses_total{reason}}). */
    enum Reason {
        /** An mplex stream buffered past half its bound for a paused reader ({@link MplexSession}). */
        STREAM_BUFFERED("stream_buffered"),
        /** What the peer sent made this node write to a connection already past its high water mark. */
        UNWRITABLE("unwritable");

        private final String label;

        Reason(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    private final ChannelConfig config;
    private final MuxerEvents events;
    private final Set<Reason> held = EnumSet.noneOf(Reason.class);

    ReadPauses(ChannelConfig config, MuxerEvents events) {
        this.config = config;
        this.events = events;
    }

    /** Pauses reading for {@code reason} (counted once per pause; holding it again changes nothing). */
    void hold(Reason reason) {
        if (held.add(reason)) {
            events.readPaused(reason.label());
            config.setAutoRead(false);
        }
    }

    /** Ends the pause for {@code reason}; reading resumes (Netty reads at once) when no other reason holds. */
    void release(Reason reason) {
        if (held.remove(reason) && held.isEmpty()) {
            config.setAutoRead(true);
        }
    }

    boolean isHeld(Reason reason) {
        return held.contains(reason);
    }
}
