package io.wakurelay.services.peerexchange;

/** A peer exchange request that did not get records: the peer could not be reached, refused, or answered badly. */
public final class PeerExchangeException extends RuntimeException {
    /** What went wrong, as the {@code waku_px_client_errors_total} label says it. */
    public enum Kind {
        DIAL_FAILURE("dial_failure"),
        ERROR_STATUS("error_status"),
        BAD_RESPONSE("bad_response"),
        TIMEOUT("timeout");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final Kind kind;
    private final int statusCode;

    PeerExchangeException(Kind kind, int statusCode, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.statusCode = statusCode;
    }

    PeerExchangeException(Kind kind, String message) {
        this(kind, 0, message, null);
    }

    public Kind kind() {
        return kind;
    }

    /** The status the peer answered with (for {@link Kind#ERROR_STATUS}), else 0. */
    public int statusCode() {
        return statusCode;
    }
}
