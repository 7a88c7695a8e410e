package io.wakurelay.protocol;

/**
 * A typed rejection of bad input: a frame or message that breaks the wire contract or the
 * validation rules. The message says what is wrong in words a user can act on.
 */
public final class ProtocolViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Violation violation;

    public ProtocolViolation(Violation violation, String detail) {
        super(violation.label() + ": " + detail, null, false, false);
        this.violation = violation;
    }

    public ProtocolViolation(Violation violation, String detail, Throwable cause) {
        super(violation.label() + ": " + detail, cause, false, false);
        this.violation = violation;
    }

    public Violation violation() {
        return violation;
    }
}
