/**
 * The message contracts every other module builds on, in flow order:
 * <ul>
 *   <li>{@code proto.WakuMessage}: the 14/WAKU2-MESSAGE protobuf (generated);</li>
 *   <li>{@link io.wakurelay.protocol.WireReader}: reads protobuf from a ByteBuf region without copying it;</li>
 *   <li>{@link io.wakurelay.protocol.WakuMessageView}: a decoded WakuMessage whose bytes fields alias the buffer;</li>
 *   <li>{@link io.wakurelay.protocol.MessageValidator}, {@link io.wakurelay.protocol.Topics},
 *       {@link io.wakurelay.protocol.ProtocolLimits}: the rules, failing with a
 *       {@link io.wakurelay.protocol.ProtocolViolation} of one {@link io.wakurelay.protocol.Violation};</li>
 *   <li>{@link io.wakurelay.protocol.MessageHasher} and {@link io.wakurelay.protocol.MessageHash}: the RFC 14 hash;</li>
 *   <li>{@link io.wakurelay.protocol.EnvelopeDecoder} (receive) and {@link io.wakurelay.protocol.EnvelopeEncoder}
 *       (publish): one decode or encode, one hash, giving an {@link io.wakurelay.protocol.Envelope};</li>
 *   <li>{@link io.wakurelay.protocol.PathCounters}: decodes, message ids, hashes, encodes and payload copies, so
 *       that benchmarks prove "decode once, hash once, copy never";</li>
 *   <li>{@link io.wakurelay.protocol.PayloadMix}: the seeded payload sizes of the load generator.</li>
 * </ul>
 * Shared by every module beside the path: {@link io.wakurelay.protocol.AutoSharding} (a content topic's shard, as
 * js-waku and nwaku compute it), {@link io.wakurelay.protocol.RepeatedStrings} (the topics' strings, found again
 * without allocating), {@link io.wakurelay.protocol.WallClock} (Unix nanoseconds, the unit of timestamps) and
 * {@link io.wakurelay.protocol.LatencyBuckets} (the bucket bounds of every latency histogram).
 */
package io.wakurelay.protocol;
