package io.wakurelay.p2p;

import io.wakurelay.p2p.connection.P2pException;

/** A connection's upgrade failed; {@link #outcome()} is the metric label of why. */
public final class HandshakeException extends P2pException {
    private final String outcome;

    HandshakeException(String outcome, String message, Throwable cause) {
        super(message, cause);
        this.outcome = outcome;
    }

    public String outcome() {
        return outcome;
    }
}
