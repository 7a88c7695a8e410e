package io.wakurelay.p2p.mux;

import io.wakurelay.p2p.Stream;

/**
 * What a muxer session reports (the host counts it); a report not overridden is ignored. Called on the connection's
 * event loop.
 */
public interface MuxerEvents {
    /** A stream agreed on its protocol. */
    default void streamOpened(Stream stream) {
    }

    /** A stream that had agreed on a protocol ended. */
    default void streamClosed(Stream stream) {
    }

    /** A stream the peer opened was reset at once ({@code reason}: e.g. too_many_streams). */
    default void streamRefused(String reason) {
    }

    /** A stream's protocol negotiation failed ({@code reason}: timeout, not_supported, malformed). */
    default void negotiationFailed(String reason) {
    }

    /** An mplex stream was reset because its paused reader let too much pile up. */
    default void streamOverflow(Stream stream) {
    }

    /** The peer broke the muxer protocol; the connection is being closed. */
    default void violation(MuxerException e) {
    }

    /** Reports nothing. */
    MuxerEvents NONE = new MuxerEvents() {
    };
}
