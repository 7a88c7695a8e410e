package io.wakurelay.rln.proof;

/**
 * Bytes that are not a point this verifier takes: a coordinate not below p, both flags set, a point off its curve or
 * (G2) outside the order-r subgroup. Without a stack trace: peers cause it at will.
 */
final class PointDecodingException extends Exception {
    private static final long serialVersionUID = 1L;

    PointDecodingException(String message) {
        super(message, null, false, false);
    }
}
