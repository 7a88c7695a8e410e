package io.wakurelay.services.lightpush;

/**
 * Lightpush v3 status codes as nwaku ({@code waku_lightpush/common.nim}) and js-waku ({@code LightPushStatusCode})
 * use them. waku-org/specs' table lists "no peers to relay" as 503; both implementations answer 505 for it and keep
 * 503 for an unavailable service, and so does this node.
 */
enum LightpushStatus {
    SUCCESS(200),
    BAD_REQUEST(400),
    PAYLOAD_TOO_LARGE(413),
    INVALID_MESSAGE(420),
    UNSUPPORTED_PUBSUB_TOPIC(421),
    TOO_MANY_REQUESTS(429),
    INTERNAL_SERVER_ERROR(500),
    SERVICE_UNAVAILABLE(503),
    /** The relay validates RLN and this node could not prove a message that came without a proof (nwaku's). */
    OUT_OF_RLN_PROOF(504),
    NO_PEERS_TO_RELAY(505);

    private final int code;

    LightpushStatus(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    /** The status of {@code code}, or null when it is none of these. */
    static LightpushStatus known(int code) {
        for (LightpushStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }

    static LightpushStatus of(int code) {
        for (LightpushStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("not a lightpush status: " + code);
    }

    /** The {@code type} of {@code waku_lightpush_v3_errors_total}: the code, as nwaku labels it. */
    String label() {
        return Integer.toString(code);
    }
}
