package io.wakurelay.services.filter;

import java.util.Locale;

/**
 * Filter v2 status codes, as nwaku's {@code waku_filter_v2/common.nim} defines them (rfc-index core/12 asks for
 * 2xx on success). The label is the {@code type} of {@code waku_filter_errors_total} for the error codes.
 */
enum FilterStatus {
    SUCCESS(200),
    BAD_REQUEST(400),
    NOT_FOUND(404),
    TOO_MANY_REQUESTS(429),
    INTERNAL_ERROR(500),
    SERVICE_UNAVAILABLE(503);

    private final int code;

    FilterStatus(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
