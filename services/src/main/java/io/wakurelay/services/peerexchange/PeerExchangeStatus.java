package io.wakurelay.services.peerexchange;

import java.util.Locale;

/** The status codes of a peer exchange answer (nwaku's {@code PeerExchangeResponseStatusCode}), and their metric labels. */
enum PeerExchangeStatus {
    SUCCESS(200),
    BAD_REQUEST(400),
    TOO_MANY_REQUESTS(429),
    SERVICE_UNAVAILABLE(503);

    private final int code;

    PeerExchangeStatus(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    /** The metric label: the name in lower case. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
