package io.wakurelay.node.rest;

import io.netty.handler.codec.http.HttpResponseStatus;

/** A request that cannot be served, with the status and the words the client gets back. */
public final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final HttpResponseStatus status;

    public HttpError(HttpResponseStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
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
