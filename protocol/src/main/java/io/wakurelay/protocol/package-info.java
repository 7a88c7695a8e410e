/**
 * The wire contracts every other module builds on: the WakuMessage and node-to-node Frame protobufs
 * (generated into {@code io.wakurelay.protocol.proto}), the length-prefixed frame codec for Netty, the
 * deterministic message hash, validation with typed errors, and the {@link io.wakurelay.protocol.Envelope}
 * view that is decoded once, hashed once and shared without copies. {@link io.wakurelay.protocol.PathCounters}
 * counts decodes, hashes and payload copies so that benchmarks can prove it.
 */
package io.wakurelay.protocol;
