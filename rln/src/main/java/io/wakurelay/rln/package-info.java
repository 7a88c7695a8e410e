/**
 * RLN relay (RFC 17 with rln-v2), as nwaku validates it on The Waku Network (docs/rln.md). In flow order:
 * <ul>
 * <li>{@link io.wakurelay.rln.RlnConfig}: the endpoints, contract, epoch and bounds.</li>
 * <li>{@code io.wakurelay.rln.chain}: the membership roots read from the chain
 *     ({@link io.wakurelay.rln.chain.MembershipRoots}).</li>
 * <li>{@code io.wakurelay.rln.crypto}: the BN254 scalar field, Poseidon, keccak hash to field, the external
 *     nullifier;</li>
 * <li>{@code io.wakurelay.rln.proof}: the RateLimitProof wire, curve points and their checks, the verifying key and
 *     Groth16 ({@link io.wakurelay.rln.proof.ProofVerifier});</li>
 * <li>{@code io.wakurelay.rln.validation}: the checks of a message in nwaku's order
 *     ({@link io.wakurelay.rln.validation.RlnValidation}) and the nullifier log.</li>
 * </ul>
 */
package io.wakurelay.rln;
