package io.wakurelay.p2p.mux;

import io.wakurelay.p2p.Stream;

/** What a muxer session reports (the host counts it). Called on the connection's event loop. */
public interface MuxerEvents {
    /** A stream agreed on its protocol. */
    void streamOpened(Stream stream);

    /** A stream that had agreed on a protocol ended. */
    void streamClosed(Stream stream);

    /** A stream the peer opened was reset at once ({@code reason}: e.g. too_many_streams). */
    void streamRefused(String reason);

    /** A stream's protocol negotiation failed ({@code reason}: timeout, not_supported, malformed). */
    void negotiationFailed(String reason);

    /** An mplex stream was reset because its paused reader let too much pile up. */
    void streamOverflow(Stream stream);

    /** The peer broke the muxer protocol; the connection is being closed. */
    void violation(MuxerException e);

    MuxerEvents NONE = new MuxerEvents() {
        @Override
        public void streamOpened(Stream stream) {
        }

        @Override
        public void streamClosed(Stream stream) {
        }

        @Override
        public void streamRefused(String reason) {
        }

        @Override
        public void negotiationFailed(String reason) {
        }

        @Override
        public void streamOverflow(Stream stream) {
        }

        @Override
        public void violation(MuxerException e) {
        }
    };
}
