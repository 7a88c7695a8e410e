package io.wakurelay.relay;

/** The relay is shut down (or shutting down): nothing more is published, subscribed or injected. */
public final class RelayClosedException extends IllegalStateException {
    public RelayClosedException(String message) {
        super(message);
    }
}
