/**
 * The stream multiplexers, on a secured connection. In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.mux.MuxerSession}: the last handler of a connection; frames to streams, limits.</li>
 * <li>{@link io.wakurelay.p2p.mux.ReadPauses}: the reasons a connection is not read (a buffering mplex stream, an
 *     unwritable connection), each released on its own; one per channel, shared with the WebSocket frames.</li>
 * <li>{@link io.wakurelay.p2p.mux.YamuxSession} and {@code YamuxStream}: {@code /yamux/1.0.0}, credit windows.</li>
 * <li>{@link io.wakurelay.p2p.mux.MplexSession} and {@code MplexStream}: {@code /mplex/6.7.0}, bounded buffers.</li>
 * <li>{@code MuxedStream}: what both streams share: per-stream negotiation, delivery with pause and resume,
 *     half-close, reset, writability.</li>
 * <li>{@link io.wakurelay.p2p.mux.ProtocolRegistry}: the protocols a peer may open streams for.</li>
 * <li>{@link io.wakurelay.p2p.mux.MuxerLimits}: what one connection's streams may hold.</li>
 * <li>{@link io.wakurelay.p2p.mux.MuxerEvents}: what a session reports, for the host's metrics.</li>
 * <li>{@link io.wakurelay.p2p.mux.MuxerException}: a peer that broke the muxer protocol, with the metric label.</li>
 * </ul>
 */
package io.wakurelay.p2p.mux;
