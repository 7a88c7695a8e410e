package io.wakurelay.node.rest;

import io.netty.handler.codec.http.HttpResponseStatus;

/** A request that cannot be served, with the status and the words the client gets back. */
public final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final HttpResponseStatus status;
    private final boolean nwakuText;

    public HttpError(HttpResponseStatus status, String message) {
        this(status, message, false);
    }

    private HttpError(HttpResponseStatus status, String message, boolean nwakuText) {
        super(message, null, false, false);
        this.status = status;
        this.nwakuText = nwakuText;
    }

    /**
     * An error in nwaku's words that scripts compare: sent as nwaku sends it, a text/plain body, unless the client asks
     * for JSON ({@code Accept: application/json}), which gets {@code {"error": ...}} as every other error here.
     */
    public static HttpError nwakuText(HttpResponseStatus status, String message) {
        return new HttpError(status, message, true);
    }

    public boolean nwakuText() {
        return nwakuText;
    }

    public static HttpError badRequest(String message) {
        return new HttpError(HttpResponseStatus.BAD_REQUEST, message);
    }

    public static HttpError notFound(String message) {
        return new HttpError(HttpResponseStatus.NOT_FOUND, message);
    }

    public HttpResponseStatus status() {
        return status;
    }
}
