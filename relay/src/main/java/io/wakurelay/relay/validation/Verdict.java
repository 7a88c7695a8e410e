package io.wakurelay.relay.validation;

import java.util.regex.Pattern;

/**
 * gossipsub's three validation results ({@code ValidationAccept}, {@code ValidationReject}, {@code ValidationIgnore}).
 * A rejected message is one no honest node would relay: its sender is penalised (P₄), and so is the sender of every
 * later copy. An ignored one fails only this node's view (a root it does not know yet, a clock): dropped, and nobody
 * pays. The reason is a metric label value from the validator's {@link RelayValidator#reasons()}, never from what a
 * peer sent.
 */
public sealed interface Verdict extends Screen permits Verdict.Accept, Verdict.Reject, Verdict.Ignore {
    /** The message is valid: forward it, deliver it. */
    Accept ACCEPT = new Accept();

    static Reject reject(String reason) {
        return new Reject(reason);
    }

    static Ignore ignore(String reason) {
        return new Ignore(reason);
    }

    /** See {@link #ACCEPT}. */
    record Accept() implements Verdict {
    }

    /** The message is invalid; {@code reason} says why (a metric label value). */
    record Reject(String reason) implements Verdict {
        public Reject {
            checkReason(reason);
        }
    }

    /** The message is dropped without penalty; {@code reason} says why (a metric label value). */
    record Ignore(String reason) implements Verdict {
        public Ignore {
            checkReason(reason);
        }
    }

    /** A reason: a lower-case metric label value of at most 64 characters. */
    Pattern REASON = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    /** @throws IllegalArgumentException when {@code reason} is not a {@link #REASON} */
    static String checkReason(String reason) {
        if (reason == null || !REASON.matcher(reason).matches()) {
            throw new IllegalArgumentException("a validation reason is a lower-case label ([a-z][a-z0-9_]*, at most "
                    + "64 characters), was " + reason);
        }
        return reason;
    }
}
