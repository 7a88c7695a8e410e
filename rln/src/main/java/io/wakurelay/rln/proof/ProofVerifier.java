package io.wakurelay.rln.proof;

import io.wakurelay.protocol.WakuMessageView;
import io.wakurelay.rln.RlnConfig.NullifierDerivation;
import io.wakurelay.rln.crypto.FieldElement;
import io.wakurelay.rln.crypto.HashToField;

/**
 * The proof step of RLN's validation, the expensive one (a keccak of the message and a pairing check, milliseconds):
 * run it off the event loops, after the validator's cheap checks (timestamp, epoch, root). In order, the first that
 * fails decides:
 * <ol>
 * <li>{@link RateLimitProof#checkFields()}: canonical field elements, an epoch, the Waku rln identifier (each with
 *     its verdict, see {@link FieldCheck});</li>
 * <li>the 128 proof bytes decoded: coordinates below p, both flags never set together, points on their curves, B in
 *     G2's subgroup, else {@link ProofVerdict#PROOF_VERIFICATION_ERROR};</li>
 * <li>no point at infinity (arkworks decodes it, no honest proof has one): {@link ProofVerdict#INVALID_PROOF};</li>
 * <li>x recomputed from the message equals field 4, else {@link ProofVerdict#INVALID_PROOF};</li>
 * <li>the Groth16 check with the public inputs [y, root, nullifier, x, external nullifier], the external nullifier
 *     computed from fields 3 and 7 with the configured derivation (cached per epoch).</li>
 * </ol>
 * Safe from several threads at once. The message's buffers must stay retained until {@link #verify} returns.
 */
public final class ProofVerifier {
    private final Groth16Verifier backend;
    private final ExternalNullifierCache externalNullifiers = new ExternalNullifierCache();

    public ProofVerifier(Groth16Verifier backend) {
        this.backend = backend;
    }

    /**
     * zwaves with the bundled rln-v2 key: loads the native library now.
     *
     * @throws Groth16BackendUnavailableException where it does not load
     */
    public static ProofVerifier rlnV2() {
        return new ProofVerifier(ZwavesGroth16Verifier.create(VerifyingKey.rlnV2()));
    }

    /** Verifies the proof of this message. */
    public ProofVerdict verify(RateLimitProof proof, WakuMessageView message, NullifierDerivation derivation) {
        return verify(proof, message, null, derivation);
    }

    /** {@link #verify(RateLimitProof, WakuMessageView, NullifierDerivation)} with x already computed. */
    public ProofVerdict verify(RateLimitProof proof, FieldElement x, NullifierDerivation derivation) {
        return verify(proof, null, x, derivation);
    }

    private ProofVerdict verify(RateLimitProof proof, WakuMessageView message, FieldElement knownX,
                                NullifierDerivation derivation) {
        FieldCheck check = proof.checkFields();
        if (check != FieldCheck.OK) {
            return check.verdict();
        }
        Groth16Proof points;
        try {
            points = Groth16Proof.decode(proof.bytes(), 0);
        } catch (PointDecodingException e) {
            return ProofVerdict.PROOF_VERIFICATION_ERROR;
        }
        if (points.hasPointAtInfinity()) {
            return ProofVerdict.INVALID_PROOF;
        }
        FieldElement x = knownX != null ? knownX : HashToField.signal(message);
        if (!x.equals(proof.fieldElement(4))) {
            return ProofVerdict.INVALID_PROOF;
        }
        FieldElement externalNullifier = externalNullifiers.get(proof.epochBytes(), proof.rlnIdentifier(), derivation);
        FieldElement[] inputs = {proof.fieldElement(5), proof.fieldElement(2), proof.fieldElement(6), x,
            externalNullifier};
        return backend.verify(points, inputs) ? ProofVerdict.VALID : ProofVerdict.INVALID_PROOF;
    }
}
