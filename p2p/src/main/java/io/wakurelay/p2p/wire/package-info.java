/**
 * Framing shared by the protocols: {@link io.wakurelay.p2p.wire.Uvarint} (unsigned varints, multiformats),
 * {@link io.wakurelay.p2p.wire.LengthPrefixedReader} (length-prefixed messages handed out as slices, never copied),
 * {@link io.wakurelay.p2p.wire.Frames} (a protobuf message written as one, straight into a pooled buffer)
 * and {@link io.wakurelay.p2p.wire.WireFormatException} (bytes that break the framing); and
 * {@link io.wakurelay.p2p.wire.OpeningDecoder}, the decoder of a protocol whose side speaks first (multistream-select,
 * Noise), opened once its channel is active.
 */
package io.wakurelay.p2p.wire;
