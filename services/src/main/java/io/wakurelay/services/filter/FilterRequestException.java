package io.wakurelay.services.filter;

/**
 * A filter request of the {@link FilterClient} that did not succeed, with nwaku's kind of failure
 * ({@code FilterSubscribeErrorKind}) and its cause, as nwaku's REST reports them.
 */
public final class FilterRequestException extends RuntimeException {

    /** nwaku's {@code FilterSubscribeErrorKind}, with its code. */
    public enum Kind {
        /** A status the service node answered that nwaku does not know (nwaku's REST answers it 200 "UNKNOWN"). */
        UNKNOWN(0),
        BAD_RESPONSE(300),
        BAD_REQUEST(400),
        NOT_FOUND(404),
        TOO_MANY_REQUESTS(429),
        SERVICE_UNAVAILABLE(503),
        PEER_DIAL_FAILURE(504);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        /** As nwaku's {@code FilterSubscribeErrorKind.parse}: the codes it knows, anything else UNKNOWN. */
        static Kind of(int statusCode) {
            for (Kind k : values()) {
                if (k.code == statusCode && k != PEER_DIAL_FAILURE) {
                    return k;
                }
            }
            return UNKNOWN;
        }
    }

    /** nwaku's REST words when no service node is known ({@code NoPeerNoDiscoError}). */
    public static final String NO_SERVICE_PEER = "No suitable service peer & no discovery method";

    private final Kind kind;
    private final String detail;
    private final boolean timedOut;

    /** @param detail the cause, or for {@link Kind#PEER_DIAL_FAILURE} the address that could not be reached */
    public FilterRequestException(Kind kind, String detail) {
        this(kind, detail, null);
    }

    public FilterRequestException(Kind kind, String detail, Throwable cause) {
        this(kind, detail, cause, false);
    }

    private FilterRequestException(Kind kind, String detail, Throwable cause, boolean timedOut) {
        super(kind + ": " + detail, cause);
        this.kind = kind;
        this.detail = detail;
        this.timedOut = timedOut;
    }

    /** No answer within the request timeout (nwaku's REST words it per route). */
    static FilterRequestException timeout(String detail) {
        return new FilterRequestException(Kind.SERVICE_UNAVAILABLE, detail, null, true);
    }

    public boolean timedOut() {
        return timedOut;
    }

    public Kind kind() {
        return kind;
    }

    /** The cause (the address for a dial failure), without the kind: nwaku's REST {@code statusDesc}. */
    public String detail() {
        return kind == Kind.UNKNOWN ? "UNKNOWN" : detail;
    }

    /** nwaku's {@code $FilterSubscribeError}: the kind, a colon and the cause. */
    public String described() {
        return kind == Kind.UNKNOWN ? "UNKNOWN" : kind + ": " + detail;
    }
}
