package io.wakurelay.rln.proof;

import io.wakurelay.rln.crypto.FieldElement;

/**
 * The pairing check of Groth16, bound to one verifying key: e(A, B) = e(α, β)·e(Σ inputᵢ·ICᵢ, γ)·e(C, δ). The one seam
 * between this verifier's own checks and a pairing library; implementations are safe to call from several threads
 * at once. The proof's points have been decoded and checked here (on the curve, B in its subgroup, none at
 * infinity), and the inputs are field elements (below r).
 */
public interface Groth16Verifier {

    /**
     * @param publicInputs as many as the key has, in the circuit's order (RLN: y, root, nullifier, x,
     *                     external nullifier)
     * @return true when the proof verifies
     */
    boolean verify(Groth16Proof proof, FieldElement[] publicInputs);
}
