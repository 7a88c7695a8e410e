package io.wakurelay.rln.proof;

/**
 * The outcome of {@link RateLimitProof#checkFields()}, the checks that cost nanoseconds and may run on an event loop:
 * each a distinct reason, each with the verdict it gives. Stricter than nwaku (docs/rln.md), which reduces
 * non-canonical field elements and takes any rln identifier.
 */
public enum FieldCheck {
    /** Every field is acceptable; the proof itself still has to be verified. */
    OK(ProofVerdict.VALID),
    /**
     * Field 2, 4, 5 or 6 (root, x, y, nullifier) is not below r: a second encoding of a field element (a nullifier
     * re-encoded as n + r would otherwise pass as a new one). nwaku master refuses these when it deserializes the
     * proof: {@code proof_verification_error}.
     */
    NON_CANONICAL_FIELD(ProofVerdict.PROOF_VERIFICATION_ERROR),
    /** Field 3 is not an epoch: bytes 8 to 31 are not zero. The validator's epoch comparison rejects it first. */
    NOT_AN_EPOCH(ProofVerdict.INVALID_PROOF),
    /** Field 7 is not the Waku rln identifier: a sender choosing it would choose its own nullifiers. */
    FOREIGN_RLN_IDENTIFIER(ProofVerdict.INVALID_PROOF);

    private final ProofVerdict verdict;

    FieldCheck(ProofVerdict verdict) {
        this.verdict = verdict;
    }

    /** What the message's proof step ends as when this check fails; {@link ProofVerdict#VALID} for {@link #OK}. */
    public ProofVerdict verdict() {
        return verdict;
    }
}
