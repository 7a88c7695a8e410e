package io.wakurelay.rln.proof;

/**
 * Field 21 of a WakuMessage is not a RateLimitProof: not protobuf, or a field of another length than the one the
 * proof has. A Reject that counts no RLN metric (nwaku's order: the decode comes first). Without a stack trace.
 */
public final class MalformedRateLimitProofException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedRateLimitProofException(String message) {
        super(message, null, false, false);
    }
}
