/**
 * RLN's rate-limit proof: the wire of WakuMessage field 21 and the verification of its Groth16 proof, in flow order:
 * <ul>
 * <li>{@link io.wakurelay.rln.proof.RateLimitProof}: fields 1-7 decoded from the buffer (or a
 *     {@link io.wakurelay.rln.proof.MalformedRateLimitProofException}), and its cheap checks, each a
 *     {@link io.wakurelay.rln.proof.FieldCheck};</li>
 * <li>{@link io.wakurelay.rln.proof.ProofVerifier}: the expensive step, ending as a
 *     {@link io.wakurelay.rln.proof.ProofVerdict};</li>
 * <li>{@link io.wakurelay.rln.proof.ArkworksEncoding}: the 128 proof bytes into points, with
 *     {@link io.wakurelay.rln.proof.Fp2}, {@link io.wakurelay.rln.proof.G1Point} and
 *     {@link io.wakurelay.rln.proof.G2Point} (curve and subgroup checks), failing with a
 *     {@link io.wakurelay.rln.proof.PointDecodingException}; the result is a
 *     {@link io.wakurelay.rln.proof.Groth16Proof};</li>
 * <li>{@link io.wakurelay.rln.proof.ExternalNullifierCache}: the external nullifier per epoch;</li>
 * <li>{@link io.wakurelay.rln.proof.VerifyingKey}: the circuit's key, fingerprinted and checked once;</li>
 * <li>{@link io.wakurelay.rln.proof.Groth16Verifier}: the pairing seam, and its implementation
 *     {@link io.wakurelay.rln.proof.ZwavesGroth16Verifier} on zwaves' native library through
 *     {@link io.wakurelay.rln.proof.PairingCeEncoding} (or a
 *     {@link io.wakurelay.rln.proof.Groth16BackendUnavailableException} where it does not load).</li>
 * </ul>
 * Uses {@code io.wakurelay.rln.crypto}, never the reverse (docs/adr/0083-groth16-backend.md).
 */
package io.wakurelay.rln.proof;
