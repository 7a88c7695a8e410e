package io.wakurelay.relay;

import java.util.Locale;

/** Who opened a connection: the peer ({@link #INBOUND}) or this node ({@link #OUTBOUND}). */
enum Direction {
    INBOUND, OUTBOUND;

    /** The value of the {@code direction} metric tag and of {@link PeerInfo#direction()}. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
