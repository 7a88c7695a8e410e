package io.wakurelay.node.rest;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.reactivestreams.Publisher;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks every request before routing against what a browser could be made to send: a foreign {@code Host}
 * (DNS rebinding, {@link HostPolicy}), a foreign {@code Origin} ({@link OriginPolicy}), and a web page's request
 * that is not a CORS request to a GET that hands out and forgets messages ({@link #DRAINING}: an
 * {@code <img src>} or a link on any site would otherwise empty the app's caches; such a request carries no
 * {@code Origin}, but browsers mark it {@code Sec-Fetch-Site: cross-site} or {@code same-site} and
 * {@code Sec-Fetch-Mode} other than {@code cors}). Each is 403, counted by {@link Refusal}. For an allowed origin it
 * adds the CORS headers and answers the browser's preflight. (Bodies must also be {@code application/json}, checked
 * where they are read, {@link Bodies}: a form or {@code text/plain} POST is what a page can send cross-origin without
 * a preflight.) Clients that are not browsers (curl, nwaku's REST client, the interop tests) send no
 * {@code Sec-Fetch-*} header and are not concerned.
 */
final class RequestGuard {
    private static final int MAX_ECHO = 100;
    /** The GETs that answer with cached messages and forget them: nwaku's relay and filter message caches. */
    static final List<String> DRAINING = List.of("/relay/v1/messages/", "/relay/v1/auto/messages/",
            "/filter/v2/messages/");

    /** Why a request was refused (the {@code reason} of {@code waku_rest_requests_forbidden_total}). */
    enum Refusal {
        HOST, ORIGIN, CROSS_SITE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final HostPolicy hosts;
    private final OriginPolicy origins;
    private final Map<Refusal, AtomicLong> refused = new EnumMap<>(Refusal.class);

    RequestGuard(RestConfig config) {
        this.hosts = new HostPolicy(config.address(), config.allowHosts());
        this.origins = new OriginPolicy(config.allowOrigins());
        for (Refusal r : Refusal.values()) {
            refused.put(r, new AtomicLong());
        }
    }

    long refused(Refusal refusal) {
        return refused.get(refusal).get();
    }

    /**
     * @return the answer to a CORS preflight, or null when the request goes on to routing
     * @throws HttpError 403 for a foreign Host or Origin, or a web page's non-CORS request to a draining GET
     */
    Publisher<Void> check(HttpServerRequest request, HttpServerResponse response) {
        String host = request.requestHeaders().get(HttpHeaderNames.HOST);
        if (!hosts.allows(host)) {
            throw refuse(Refusal.HOST, "Host '" + clip(host) + "' is not this node's address; "
                    + "use its IP address, or start the node with --rest-allow-host to accept a name");
        }
        checkDraining(request);
        String origin = request.requestHeaders().get(HttpHeaderNames.ORIGIN);
        if (origin == null) {
            return null;
        }
        if (!origins.allows(origin)) {
            throw refuse(Refusal.ORIGIN, "cross-origin requests from '" + clip(origin)
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

    /** A draining GET from another site's page that is not a CORS request (an image, a script, a link): 403. */
    private void checkDraining(HttpServerRequest request) {
        if (!request.method().equals(HttpMethod.GET)) {
            return;
        }
        String site = request.requestHeaders().get("Sec-Fetch-Site");
        if (site == null || !(site.equalsIgnoreCase("cross-site") || site.equalsIgnoreCase("same-site"))
                || "cors".equalsIgnoreCase(request.requestHeaders().get("Sec-Fetch-Mode"))) {
            return;
        }
        String path = Paths.rawPath(request.uri());
        for (String draining : DRAINING) {
            if (path.startsWith(draining)) {
                throw refuse(Refusal.CROSS_SITE, "GET " + draining + "... hands out the cached messages and forgets "
                        + "them: a " + clip(site) + " request that is not a CORS request (Sec-Fetch-Mode: "
                        + clip(String.valueOf(request.requestHeaders().get("Sec-Fetch-Mode"))) + ") may not; "
                        + "call it with fetch() from an origin allowed by --rest-allow-origin");
            }
        }
    }

    private HttpError refuse(Refusal refusal, String why) {
        refused.get(refusal).incrementAndGet();
        return new HttpError(HttpResponseStatus.FORBIDDEN, why);
    }

    private static String clip(String value) {
        return value.length() <= MAX_ECHO ? value : value.substring(0, MAX_ECHO) + "...";
    }
}
