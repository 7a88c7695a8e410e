package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.wakurelay.node.status.NodeStatus;
import io.wakurelay.protocol.AutoSharding;
import io.wakurelay.protocol.ProtocolLimits;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.services.filter.FilterClient;
import io.wakurelay.services.store.StoreQueries;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.channel.AbortedException;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The REST API (nwaku-compatible where nwaku has the endpoint). Every error is a JSON body with a 4xx status
 * for bad input, except those in nwaku's words that scripts compare, which are text/plain as nwaku sends them unless
 * the client asks for JSON ({@link HttpError#nwakuText}); anything unexpected is logged and answered 500 without
 * internals.
 */
public final class RestServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RestServer.class);
    private static final String MESSAGES = "/relay/v1/messages/";
    private static final String STREAM = "/relay/v1/stream/";
    private static final String LOG_LEVEL = "/admin/v1/log-level/";
    private static final String ADMIN = "/admin/";
    private static final String AUTO_MESSAGES = "/relay/v1/auto/messages";
    /** nwaku's answer to every /relay path on a node without relay (rest_api/endpoint/builder.nim). */
    static final String RELAY_NOT_MOUNTED = "/relay endpoints are not available. Please check your configuration: --relay";
    static final int MAX_REQUEST_LINE = 16 * 1024;
    /**
     * Requests answered at once besides the event streams ({@code --rest-max-streams} of them): past them a request
     * is answered 503 with {@code Retry-After} at once, so that clients that never finish cannot pile up.
     */
    static final int MAX_REQUESTS_BESIDES_STREAMS = 256;
    /** The time a client has to send a whole request (headers and body) once it began. */
    static final Duration REQUEST_READ_TIMEOUT = Duration.ofSeconds(30);

    private final ObjectMapper mapper;
    private final RelayApi relay;
    private final StoreApi store;
    private final NodeApi node;
    private final AdminApi adminViews;
    private final LightpushApi lightpush;
    private final LegacyLightpushApi legacyLightpush;
    private final boolean relayMounted;
    private final FilterApi filter;
    private final RequestGuard guard;
    private final LiveStreams streams;
    private final boolean admin;
    private final DisposableServer server;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong refusedInFlight = new AtomicLong();
    private final int maxInFlight;

    /**
     * Binds {@code config}'s address and serves from then on.
     *
     * @param relay     null on a node without relay ({@code --relay=false}): the /relay routes answer as nwaku's then
     * @param storeNode the store asked without {@code peerAddr} when {@code store} is null ({@code --storenode}); may be null
     * @param lightpush where REST lightpush goes; null: neither a lightpush service nor a service node
     */
    public static RestServer start(RestConfig config, RelayPort relay, StoreQueries store, RemoteStore remoteStore,
                                   Multiaddr storeNode, NodeStatus status, ObjectMapper mapper, TopicCache cache,
                                   LiveStreams streams, LongSupplier clockNanos, ProtocolLimits limits, AutoSharding autoSharding,
                                   LightpushPort lightpush, FilterClient filterClient, FilterMessageCache filterCache) {
        return new RestServer(config, relay, store, remoteStore, storeNode, status, mapper, cache, streams, clockNanos,
                limits, autoSharding, lightpush, filterClient, filterCache);
    }

    private RestServer(RestConfig config, RelayPort relay, StoreQueries store, RemoteStore remoteStore, Multiaddr storeNode,
                      NodeStatus status, ObjectMapper mapper, TopicCache cache, LiveStreams streams, LongSupplier clockNanos,
                      ProtocolLimits limits, AutoSharding autoSharding, LightpushPort lightpush, FilterClient filterClient,
                      FilterMessageCache filterCache) {
        this.mapper = mapper;
        this.relayMounted = relay != null;
        this.relay = relay == null ? null : new RelayApi(relay, mapper, cache, streams, config, clockNanos, limits, autoSharding);
        this.filter = new FilterApi(filterClient, filterCache, autoSharding, mapper, config);
        this.lightpush = new LightpushApi(lightpush, autoSharding, mapper, config, clockNanos, limits.maxMessageSize());
        this.legacyLightpush = new LegacyLightpushApi(lightpush, this.lightpush, mapper, config, clockNanos,
                limits.maxMessageSize());
        this.store = new StoreApi(store, remoteStore, storeNode, mapper);
        this.node = new NodeApi(status, mapper, config);
        this.adminViews = new AdminApi(status, mapper);
        this.guard = new RequestGuard(config);
        this.streams = streams;
        this.admin = config.admin();
        this.maxInFlight = config.maxStreams() + MAX_REQUESTS_BESIDES_STREAMS;
        this.server = HttpServer.create()
                .host(config.address())
                .port(config.port())
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .idleTimeout(Duration.ofMinutes(2))
                // a body sent slowly held its connection and up to a whole body's memory for as long as it trickled
                .requestTimeout(REQUEST_READ_TIMEOUT)
                // a Store v3 query may list 100 hashes of 66 characters each in its URL
                .httpRequestDecoder(spec -> spec.maxInitialLineLength(MAX_REQUEST_LINE))
                // a client still sending an oversized request line reads its 431 (nwaku's status) instead of a reset
                .doOnChannelInit((observer, channel, remote) -> {
                    if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                        channel.pipeline().addAfter(NettyPipeline.HttpCodec, LingeringClose.NAME, new LingeringClose());
                    }
                })
                .handle(this::handle)
                .bindNow();
    }

    /** Requests being answered now, event streams included. */
    public int inFlight() {
        return inFlight.get();
    }

    /** Requests refused (403) by the guard for {@code refusal}: a foreign Host or Origin, or a cross-site draining GET. */
    long forbidden(RequestGuard.Refusal refusal) {
        return guard.refused(refusal);
    }

    /** Requests refused because {@link #inFlight()} was at its bound. */
    public long refusedInFlight() {
        return refusedInFlight.get();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    private Publisher<Void> handle(HttpServerRequest request, HttpServerResponse response) {
        int now = inFlight.incrementAndGet(); // before the check: drain() then either sees this request or draining
        if (draining.get()) {
            inFlight.decrementAndGet();
            return shuttingDown(request, response);
        }
        if (now > maxInFlight) {
            inFlight.decrementAndGet();
            refusedInFlight.incrementAndGet();
            response.header(HttpHeaderNames.RETRY_AFTER, "1");
            return Responses.error(request, response, mapper, new HttpError(HttpResponseStatus.SERVICE_UNAVAILABLE,
                    "the node is answering " + maxInFlight + " requests already; retry shortly"));
        }
        Publisher<Void> reply;
        try {
            Publisher<Void> preflight = guard.check(request, response);
            reply = preflight != null ? preflight : route(request, response);
        } catch (RuntimeException e) {
            reply = Mono.error(e);
        }
        return Mono.from(reply).onErrorResume(e -> Mono.from(fail(request, response, e)))
                .doFinally(signal -> inFlight.decrementAndGet());
    }

    private Publisher<Void> shuttingDown(HttpServerRequest request, HttpServerResponse response) {
        response.header(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (Paths.rawPath(request.uri()).equals("/health")) {
            return Responses.json(response, mapper, HttpResponseStatus.SERVICE_UNAVAILABLE,
                    Map.of("nodeHealth", NodeApi.SHUTTING_DOWN, "protocolsHealth", List.of()));
        }
        return Responses.error(request, response, mapper, new HttpError(HttpResponseStatus.SERVICE_UNAVAILABLE, "the node is shutting down"));
    }

    /**
     * The first step of the node's shutdown, before the relay and the archive stop: from now on every request is
     * answered 503 (and its connection closed), the event streams end, and requests already being served get up
     * to {@code grace} to finish, so that none of them meets a closed relay or archive. Completes when they have
     * (it waits on the caller's thread).
     */
    public Mono<Void> shutdown(Duration grace) {
        return Mono.fromRunnable(() -> drain(grace));
    }

    private void drain(Duration grace) {
        draining.set(true);
        streams.completeAll();
        long deadline = System.nanoTime() + grace.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (inFlight.get() > 0) {
            log.atWarn().addKeyValue("requests", inFlight.get()).addKeyValue("grace", String.valueOf(grace))
                    .log("REST requests still running after the draining; they may fail as the node closes");
        }
    }

    /**
     * Routes as nwaku's router does, by method and path together: a method a path does not take is a 404, as is
     * /admin without --rest-admin (nwaku does not mount it then); OPTIONS is answered 200 where nwaku has it, on
     * the relay routes (a browser's preflight is answered before, by the {@link RequestGuard}).
     */
    private Publisher<Void> route(HttpServerRequest request, HttpServerResponse response) {
        String path = Paths.rawPath(request.uri());
        HttpMethod method = request.method();
        if (path.startsWith(ADMIN) && !admin) {
            throw HttpError.notFound("the admin endpoints are off (not served, as in nwaku); start the node with --rest-admin");
        }
        if (!relayMounted && (path + "/").startsWith("/relay/")) { // nwaku: the path's first segment is "relay"
            throw HttpError.nwakuText(HttpResponseStatus.NOT_FOUND, RELAY_NOT_MOUNTED);
        }
        if (path.startsWith(MESSAGES)) {
            String topic = Paths.decode(path.substring(MESSAGES.length()));
            if (method.equals(HttpMethod.POST)) {
                return relay.publish(request, response, topic);
            }
            if (method.equals(HttpMethod.GET)) {
                return relay.cached(response, topic);
            }
            return relayOptions(method, path, response, "GET, POST");
        }
        if (path.equals(AUTO_MESSAGES)) {
            return method.equals(HttpMethod.POST) ? relay.autoPublish(request, response) : relayOptions(method, path, response, "POST");
        }
        if (path.startsWith(AUTO_MESSAGES + "/")) {
            return method.equals(HttpMethod.GET) ? relay.autoCached(response, Paths.decode(path.substring(AUTO_MESSAGES.length() + 1)))
                    : relayOptions(method, path, response, "GET");
        }
        if (path.startsWith(FilterApi.PREFIX)) {
            return filter.route(request, response, method, path);
        }
        if (path.startsWith(LOG_LEVEL)) {
            return method.equals(HttpMethod.POST) ? node.setLogLevel(response, Paths.decode(path.substring(LOG_LEVEL.length())))
                    : notServed(method, path, "POST");
        }
        if (AdminApi.serves(path)) {
            return adminViews.route(method, path, response);
        }
        if (path.startsWith(STREAM)) {
            return method.equals(HttpMethod.GET) ? relay.stream(response, Paths.decode(path.substring(STREAM.length()))) : notServed(method, path, "GET");
        }
        switch (path) {
            case "/relay/v1/subscriptions" -> {
                if (method.equals(HttpMethod.POST)) {
                    return relay.subscribe(request, response);
                }
                if (method.equals(HttpMethod.DELETE)) {
                    return relay.unsubscribe(request, response);
                }
                return relayOptions(method, path, response, "POST, DELETE");
            }
            case "/relay/v1/auto/subscriptions" -> {
                if (method.equals(HttpMethod.POST)) {
                    return relay.autoSubscribe(request, response);
                }
                if (method.equals(HttpMethod.DELETE)) {
                    return relay.autoUnsubscribe(request, response);
                }
                return relayOptions(method, path, response, "POST, DELETE");
            }
            case "/lightpush/v3/message" -> {
                return method.equals(HttpMethod.POST) ? lightpush.push(request, response) : notServed(method, path, "POST");
            }
            case "/lightpush/v1/message" -> {
                return method.equals(HttpMethod.POST) ? legacyLightpush.push(request, response) : notServed(method, path, "POST");
            }
            case "/store/v3/messages" -> {
                return method.equals(HttpMethod.GET) ? store.query(request, response) : notServed(method, path, "GET");
            }
            case "/health" -> {
                return method.equals(HttpMethod.GET) ? node.health(response) : notServed(method, path, "GET");
            }
            case "/debug/v1/info", "/info" -> { // /info: nwaku's newer name for the same answer
                return method.equals(HttpMethod.GET) ? node.info(response) : notServed(method, path, "GET");
            }
            case "/debug/v1/version", "/version" -> {
                return method.equals(HttpMethod.GET) ? node.version(response) : notServed(method, path, "GET");
            }
            case "/admin/v1/peers" -> {
                if (method.equals(HttpMethod.GET)) {
                    return node.peers(response);
                }
                if (method.equals(HttpMethod.POST)) {
                    return node.addPeers(request, response);
                }
                return notServed(method, path, "GET, POST");
            }
            default -> throw HttpError.notFound("no endpoint " + method + " " + path);
        }
    }

    /** On a relay route, OPTIONS is 200 OK as nwaku answers it; any other method the route does not take is a 404. */
    private static Publisher<Void> relayOptions(HttpMethod method, String path, HttpServerResponse response, String methods) {
        return method.equals(HttpMethod.OPTIONS) ? Responses.text(response, HttpResponseStatus.OK, "OK") : notServed(method, path, methods);
    }

    private static Publisher<Void> notServed(HttpMethod method, String path, String methods) {
        throw HttpError.notFound("no endpoint " + method + " " + path + "; this path takes " + methods);
    }

    private Publisher<Void> fail(HttpServerRequest request, HttpServerResponse response, Throwable e) {
        if (response.hasSentHeaders()) {
            // an answer that fails midway can only be cut: closing the connection tells the client it is incomplete
            log.atDebug().addKeyValue("method", String.valueOf(request.method())).addKeyValue("uri", request.uri())
                    .addKeyValue("reason", e.toString()).log("REST request failed after the response started");
            response.withConnection(Connection::dispose);
            return Mono.empty();
        }
        if (e instanceof HttpError error) {
            return Responses.error(request, response, mapper, error);
        }
        if (e instanceof AbortedException) {
            // the client hung up before its answer was ready (a poller giving up): nothing failed here
            log.atDebug().addKeyValue("method", String.valueOf(request.method())).addKeyValue("uri", request.uri())
                    .addKeyValue("reason", e.toString()).log("REST client closed the connection before the response");
            return Mono.empty();
        }
        log.atError().addKeyValue("method", String.valueOf(request.method())).addKeyValue("uri", request.uri()).setCause(e)
                .log("REST request failed");
        return Responses.error(request, response, mapper, new HttpError(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error"));
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
