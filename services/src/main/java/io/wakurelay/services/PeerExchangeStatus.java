package io.wakurelay.services;

/** The status codes of a peer exchange answer (nwaku's {@code PeerExchangeResponseStatusCode}), and their metric labels. */
enum PeerExchangeStatus {
    SUCCESS(200, "success"),
    BAD_REQUEST(400, "bad_request"),
    TOO_MANY_REQUESTS(429, "too_many_requests"),
    SERVICE_UNAVAILABLE(503, "service_unavailable");

    private final int code;
    private final String label;

    PeerExchangeStatus(int code, String label) {
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
