/**
 * RLN's arithmetic and hashes over BN254's scalar field r (RFC 17 with rln-v2, as zerokit computes them), in flow
 * order:
 * <ul>
 * <li>{@link io.wakurelay.rln.crypto.PrimeField}: Montgomery arithmetic on long limbs for r and for the base field p,
 *     canonical 32-byte encodings read strictly (never reduced);</li>
 * <li>{@link io.wakurelay.rln.crypto.FieldElement}: an immutable element of r, the values of the wire;</li>
 * <li>{@link io.wakurelay.rln.crypto.HashToField}: keccak-256 as a little-endian integer mod r, and the message's
 *     signal hash x, fed from the message's own buffers;</li>
 * <li>{@link io.wakurelay.rln.crypto.GrainLfsr} and {@link io.wakurelay.rln.crypto.PoseidonParameters}: circomlib's
 *     Poseidon constants, generated as the reference script generates them;</li>
 * <li>{@link io.wakurelay.rln.crypto.Poseidon}: the hash, t = 2 and t = 3;</li>
 * <li>{@link io.wakurelay.rln.crypto.ExternalNullifier}: both derivations from epoch and rln identifier.</li>
 * </ul>
 * Uses only {@code io.wakurelay.rln} (the derivation's name) and protocol's message view.
 */
package io.wakurelay.rln.crypto;
