package io.wakurelay.p2p.nat;

/** An exchange with the gateway that failed: no answer, a refusal, or an answer out of bounds. */
final class NatException extends Exception {
    /** The UPnP error code of a SOAP fault (718 ConflictInMappingEntry, …), or -1. */
    private final int upnpError;

    NatException(String message) {
        this(message, -1, null);
    }

    NatException(String message, Throwable cause) {
        this(message, -1, cause);
    }

    NatException(String message, int upnpError, Throwable cause) {
        super(message, cause);
        this.upnpError = upnpError;
    }

    int upnpError() {
        return upnpError;
    }
}
