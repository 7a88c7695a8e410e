package io.wakurelay.node.rest;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.reactivestreams.Publisher;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Checks every request before routing against what a browser could be made to send: a foreign {@code Host}
 * (DNS rebinding, {@link HostPolicy}) and a foreign {@code Origin} ({@link OriginPolicy}); both are 403. For an
 * allowed origin it adds the CORS headers and answers the browser's preflight. (Bodies must also be
 * {@code application/json}, checked where they are read, {@link Bodies}: a form or {@code text/plain} POST is
 * what a page can send cross-origin without a preflight.)
 */
final class RequestGuard {
    private static final int MAX_ECHO = 100;

    private final HostPolicy hosts;
    private final OriginPolicy origins;

    RequestGuard(RestConfig config) {
        this.hosts = new HostPolicy(config.address(), config.allowHosts());
        this.origins = new OriginPolicy(config.allowOrigins());
    }

    /**
     * @return the answer to a CORS preflight, or null when the request goes on to routing
     * @throws HttpError 403 for a foreign Host or Origin
     */
    Publisher<Void> check(HttpServerRequest request, HttpServerResponse response) {
        String host = request.requestHeaders().get(HttpHeaderNames.HOST);
        if (!hosts.allows(host)) {
            throw new HttpError(HttpResponseStatus.FORBIDDEN, "Host '" + clip(host) + "' is not this node's address; "
                    + "use its IP address, or start the node with --rest-allow-host to accept a name");
        }
        String origin = request.requestHeaders().get(HttpHeaderNames.ORIGIN);
        if (origin == null) {
            return null;
        }
        if (!origins.allows(origin)) {
            throw new HttpError(HttpResponseStatus.FORBIDDEN, "cross-origin requests from '" + clip(origin)
                    + "' are not allowed; start the node with --rest-allow-origin to allow a web page's origin");
        }
        response.header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin).header(HttpHeaderNames.VARY, HttpHeaderNames.ORIGIN);
        if (request.method().equals(HttpMethod.OPTIONS) && request.requestHeaders().contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD)) {
            return response.status(HttpResponseStatus.NO_CONTENT)
                    .header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, "GET, POST, DELETE")
                    .header(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, "Content-Type")
                    .header(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, "600")
                    .send();
        }
        return null;
    }

    private static String clip(String value) {
        return value.length() <= MAX_ECHO ? value : value.substring(0, MAX_ECHO) + "...";
    }
}
