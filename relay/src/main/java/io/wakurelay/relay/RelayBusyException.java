package io.wakurelay.relay;

/**
 * A local publish was refused because the local consumer of {@link Relay#accepted()} is behind: the bounded
 * queue of envelopes handed to it is full. Nothing was relayed; the caller may retry later (REST answers 503).
 */
public final class RelayBusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RelayBusyException(String message) {
        super(message, null, false, false);
    }
}
