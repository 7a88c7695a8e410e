package io.wakurelay.node.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * Serves {@code GET /metrics} on its own port: in the Prometheus text exposition format, or in OpenMetrics when the
 * scraper asks for it in {@code Accept} (as Prometheus does by default).
 */
public final class MetricsServer implements AutoCloseable {
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final DisposableServer server;

    private MetricsServer(DisposableServer server) {
        this.server = server;
    }

    /**
     * Binds {@code config}'s address and serves from then on.
     *
     * @param scrape the exposition in the content type it is given ({@link #PROMETHEUS_TEXT} or {@link #OPENMETRICS_TEXT})
     */
    public static MetricsServer start(MetricsConfig config, Function<String, String> scrape) {
        return new MetricsServer(HttpServer.create()
                .host(config.address())
                .port(config.port())
                .handle((request, response) -> {
                    String path = request.uri().split("\\?", 2)[0];
                    if (!path.equals("/metrics") || !request.method().equals(HttpMethod.GET)) {
                        return response.status(HttpResponseStatus.NOT_FOUND).send(Mono.fromSupplier(() -> text("only GET /metrics is served here\n")));
                    }
                    // a scrape reads RocksDB properties and /proc; keep it off the network threads. The answer is a
                    // heap buffer wrapping the text's bytes, not a pooled one: when the scraper has hung up by the time
                    // it is ready, Reactor Netty drops it unwritten and unreleased, which for a heap wrapper is garbage
                    // like any other and for a pooled buffer was a leak (MetricsServerTest reproduces it)
                    String type = contentType(request.requestHeaders().get(HttpHeaderNames.ACCEPT));
                    return response.header(HttpHeaderNames.CONTENT_TYPE, type)
                            .send(Mono.fromSupplier(() -> text(scrape.apply(type))).subscribeOn(Schedulers.boundedElastic()));
                })
                .bindNow());
    }

    private static ByteBuf text(String text) {
        return Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8));
    }

    /** OpenMetrics if the scraper lists it in {@code Accept} (whatever its weight), else the Prometheus text format. */
    static String contentType(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text")
                ? OPENMETRICS_TEXT : PROMETHEUS_TEXT;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    /** Nothing to finish: scrapes are answered until {@link #close()}, so that a stopping node can still be watched. */
    public Mono<Void> shutdown(Duration grace) {
        return Mono.empty();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
