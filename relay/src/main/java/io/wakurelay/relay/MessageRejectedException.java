package io.wakurelay.relay;

/**
 * The relay's installed validator (RLN) did not accept a message this node was to publish: rejected (no honest node
 * would relay it: nwaku's lightpush answers 420 {@code INVALID_MESSAGE}) or ignored (it fails only this node's view,
 * such as a root it does not know yet). Nothing was sent. {@link #reason()} is the validator's.
 */
public final class MessageRejectedException extends RuntimeException {
    private final String reason;
    private final boolean ignored;

    MessageRejectedException(String reason, boolean ignored) {
        super((ignored ? "ignored" : "rejected") + " by the relay's validator: " + reason, null, false, false);
        this.reason = reason;
        this.ignored = ignored;
    }

    /** The validator's reason (a metric label value, such as {@code invalid_proof}). */
    public String reason() {
        return reason;
    }

    /** True when the validator ignored the message rather than rejected it. */
    public boolean ignored() {
        return ignored;
    }
}
