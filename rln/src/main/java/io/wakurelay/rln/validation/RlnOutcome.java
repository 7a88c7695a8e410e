package io.wakurelay.rln.validation;

/**
 * What RLN's validation of one message ends as: nwaku's outcomes (rln/README.md of the test vectors, docs/rln.md), and
 * what each means for the relay. Every outcome but {@link #NEEDS_PROOF} is final.
 */
public enum RlnOutcome {
    /** Field 21 is not a RateLimitProof: rejected, and no RLN metric counts it (nwaku's). */
    DECODE("decode", Kind.REJECT),
    /** The timestamp is more than the allowed gap from this node's clock. */
    INVALID_TIMESTAMP("invalid_timestamp", Kind.REJECT),
    /** The proof's epoch is not the epoch of the message's timestamp. */
    TIMESTAMP_MISMATCH("timestamp_mismatch", Kind.REJECT),
    /** The proof names a root that is not among the acceptable ones. */
    INVALID_ROOT("invalid_root", Kind.REJECT),
    /** The proof does not verify (or names a foreign rln identifier, which this node refuses where nwaku does not). */
    INVALID_PROOF("invalid_proof", Kind.REJECT),
    /** The proof cannot be read: a point that does not decode, or a field element encoded at or above r. */
    PROOF_VERIFICATION_ERROR("proof_verification_error", Kind.REJECT),
    /** A second valid message with a nullifier already logged for its epoch: a double signal. */
    SPAM("spam", Kind.REJECT),
    /** Valid, but its epoch's nullifier log is full: dropped without penalty (see {@code NullifierLog}). */
    NULLIFIER_LOG_FULL("nullifier_log_full", Kind.IGNORE),
    /** The cheap checks passed: the proof must be verified (off the event loop). */
    NEEDS_PROOF("needs_proof", Kind.PENDING),
    /** Valid: relayed, delivered and archived; its nullifier is logged. */
    VALID("valid", Kind.ACCEPT);

    /** What the relay does with a message of this outcome. */
    public enum Kind { ACCEPT, REJECT, IGNORE, PENDING }

    private final String label;
    private final Kind kind;

    RlnOutcome(String label, Kind kind) {
        this.label = label;
        this.kind = kind;
    }

    /** A metric label value, and the {@code expected_metric_type} of the RLN test vectors. */
    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }
}
