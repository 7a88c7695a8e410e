package io.wakurelay.p2p.mux;

import java.time.Duration;

/**
 * What one connection's streams may hold.
 *
 * @param maxInboundStreams      streams the peer may have open at once; past it a new one is reset
 * @param maxOutboundStreams     streams this node may have open at once on the connection
 * @param negotiationTimeout     time a stream has to agree on a protocol before it is reset
 * @param yamuxReceiveWindow     credit each yamux stream grants the peer (at least the spec's 256 KiB): the most a
 *                               stream buffers for a paused reader
 * @param streamWriteBufferBytes bytes a stream queues toward the peer (waiting for credit) before it reports
 *                               itself unwritable; writes past it are still queued: the protocol decides what to drop
 * @param mplexMaxBufferedBytes  bytes an mplex stream buffers for a paused reader before it is reset (mplex has no
 *                               credit); past half of it the connection's reading pauses until the stream drains
 */
public record MuxerLimits(int maxInboundStreams, int maxOutboundStreams, Duration negotiationTimeout,
                          int yamuxReceiveWindow, int streamWriteBufferBytes, int mplexMaxBufferedBytes) {
    public static final int YAMUX_INITIAL_WINDOW = 256 * 1024;
    public static final MuxerLimits DEFAULTS = new MuxerLimits(256, 256, Duration.ofSeconds(10),
            YAMUX_INITIAL_WINDOW, 1024 * 1024, 4 * 1024 * 1024);

    public MuxerLimits {
        if (maxInboundStreams < 1 || maxOutboundStreams < 1) {
            throw new IllegalArgumentException("stream limits must be positive");
        }
        if (negotiationTimeout.isNegative() || negotiationTimeout.isZero()) {
            throw new IllegalArgumentException("negotiationTimeout must be positive, was " + negotiationTimeout);
        }
        if (yamuxReceiveWindow < YAMUX_INITIAL_WINDOW) {
            throw new IllegalArgumentException("yamuxReceiveWindow must be at least " + YAMUX_INITIAL_WINDOW
                    + " (the spec's initial window), was " + yamuxReceiveWindow);
        }
        if (streamWriteBufferBytes < 1) {
            throw new IllegalArgumentException("streamWriteBufferBytes must be positive, was " + streamWriteBufferBytes);
        }
        if (mplexMaxBufferedBytes < 2 * MplexSession.MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("mplexMaxBufferedBytes must be at least two mplex frames ("
                    + 2 * MplexSession.MAX_FRAME_BYTES + "), was " + mplexMaxBufferedBytes);
        }
    }
}
