package io.wakurelay.services.store;

/**
 * A query of another node's store that did not succeed, with the Store v3 status to report (nwaku's codes): the
 * peer's own status when it answered with an error (400, 429, 503, ...); 300 (BAD_RESPONSE) when its answer was
 * malformed, too large or missing; 504 (PEER_DIAL_FAILURE) when it could not be reached, did not offer the
 * protocol, or did not answer in time. The message is the status description.
 */
public final class RemoteStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public static final int BAD_RESPONSE = 300;
    public static final int PEER_DIAL_FAILURE = 504;
    /** This node's own bound: as many queries of other stores are open as it allows. */
    public static final int TOO_MANY_REQUESTS = 429;

    private final int statusCode;

    public RemoteStoreException(int statusCode, String description) {
        this(statusCode, description, null);
    }

    public RemoteStoreException(int statusCode, String description, Throwable cause) {
        super(description, cause);
        this.statusCode = statusCode;
    }

    /** The Store v3 status code (never 2xx). */
    public int statusCode() {
        return statusCode;
    }
}
