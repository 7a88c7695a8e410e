package io.wakurelay.p2p.mux;

import io.wakurelay.p2p.connection.Stream;

import java.util.List;

/**
 * What a muxer session reports (the host counts it); a report not overridden is ignored. Called on the connection's
 * event loop.
 */
public interface MuxerEvents {
    /** {@link #streamRefused} reasons: past {@link MuxerLimits#maxInboundStreams()}, or opened while unwritable. */
    List<String> REFUSAL_REASONS = List.of(MuxerSession.TOO_MANY_STREAMS, MuxerSession.CONNECTION_UNWRITABLE);
    /** {@link #replyDropped} labels: a yamux pong, a refused stream's reset, a stream's negotiation answer. */
    List<String> DROPPED_REPLIES = List.of(YamuxSession.PONG, MuxerSession.STREAM_REFUSAL, MuxedStream.NEGOTIATION_ANSWER);
    /** {@link #readPaused} reasons. */
    List<String> READ_PAUSE_REASONS = java.util.Arrays.stream(ReadPauses.Reason.values()).map(ReadPauses.Reason::label).toList();

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

    /**
     * A reply the peer's frame asked for was not written: the connection could not take it (unwritable, or a yamux
     * pong still waiting to be written). {@code reply} is one of {@link #DROPPED_REPLIES}.
     */
    default void replyDropped(String reply) {
    }

    /** The connection stopped being read ({@code reason}: one of {@link #READ_PAUSE_REASONS}). */
    default void readPaused(String reason) {
    }

    /** The peer broke the muxer protocol; the connection is being closed. */
    default void violation(MuxerException e) {
    }

    /** Reports nothing. */
    MuxerEvents NONE = new MuxerEvents() {
    };
}
