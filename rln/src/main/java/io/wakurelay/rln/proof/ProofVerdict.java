package io.wakurelay.rln.proof;

/** What the proof step of RLN's validation ends as, with nwaku's metric label for it. */
public enum ProofVerdict {
    /** The proof verifies with the public inputs recomputed from the message. */
    VALID("valid"),
    /** The proof decodes but does not verify: {@code waku_rln_invalid_messages_total{type="invalid_proof"}}. */
    INVALID_PROOF("invalid_proof"),
    /**
     * The proof cannot be read: a point that does not decode, or a non-canonical field element; nwaku counts it in
     * {@code waku_rln_errors_total{type="proof_verification"}}.
     */
    PROOF_VERIFICATION_ERROR("proof_verification_error");

    private final String label;

    ProofVerdict(String label) {
        this.label = label;
    }

    /** The {@code expected_metric_type} of the RLN test vectors. */
    public String label() {
        return label;
    }
}
