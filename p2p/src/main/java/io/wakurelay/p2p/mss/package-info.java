/**
 * multistream-select 1.0 (libp2p/specs connections/README.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.p2p.mss.MultistreamSelect}: one negotiation, as dialer or listener, on byte buffers.</li>
 * <li>{@link io.wakurelay.p2p.mss.MultistreamHandler}: a negotiation on a whole connection, which hands over to the
 *     chosen protocol's handler.</li>
 * <li>{@link io.wakurelay.p2p.mss.NegotiationException}: a peer that breaks the protocol, or no protocol agreed.</li>
 * </ul>
 * Streams negotiate with {@code MultistreamSelect} inside {@code mux.MuxedStream}.
 */
package io.wakurelay.p2p.mss;
