package io.wakurelay.services.store;

/**
 * Store v3 status codes, as nwaku's {@code waku_store/common.nim} defines them (rfc-index core/13 asks for 2xx on
 * success and leaves the rest to the implementations). The label is the {@code type} of
 * {@code waku_store_errors_total} for the codes that are errors.
 */
enum StoreStatus {
    SUCCESS(200, "OK"),
    /** A client-side verdict: the peer's response was malformed or missing. */
    BAD_RESPONSE(300, "bad_response"),
    BAD_REQUEST(400, "bad_request"),
    TOO_MANY_REQUESTS(429, "too_many_requests"),
    INTERNAL_ERROR(500, "internal_error"),
    SERVICE_UNAVAILABLE(503, "service_unavailable"),
    /** A client-side verdict: the peer could not be reached, or did not answer in time. */
    PEER_DIAL_FAILURE(504, "peer_dial_failure");

    private final int code;
    private final String label;

    StoreStatus(int code, String label) {
        this.code = code;
        this.label = label;
    }

    int code() {
        return code;
    }

    String label() {
        return label;
    }
}
