package io.wakurelay.relay;

/** A local publish was refused because the local consumer (the archive) is too far behind; try again later. */
public final class RelayBusyException extends RuntimeException {
    public RelayBusyException(String message) {
        super(message);
    }
}
