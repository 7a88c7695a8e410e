package io.wakurelay.node.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.wakurelay.node.rest.HostPolicy;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Serves {@code GET /metrics} on its own port: in the Prometheus text exposition format, or in OpenMetrics when the
 * scraper asks for it in {@code Accept} (as Prometheus does by default). As Prometheus' own exporters do, repeated
 * {@code name[]=} parameters restrict the answer to those metric families, so that a watcher that wants three gauges
 * often does not make the node render every meter each time (the load generator's remote sampler reads three, ten
 * times a second). A request whose {@code Host} is not this server's address, {@code localhost} or a
 * {@code --rest-allow-host} name is refused (403, counted), as the REST API refuses it: DNS rebinding would otherwise
 * let any web page read the node's metrics ({@link HostPolicy}).
 */
public final class MetricsServer implements AutoCloseable {
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    /** More {@code name[]} parameters than this are refused (400): a filter is for a few names. */
    static final int MAX_NAMES = 64;
    private static final List<String> SAMPLE_SUFFIXES = List.of("_total", "_created", "_bucket", "_count", "_sum", "_info");
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    /** Renders the exposition. */
    @FunctionalInterface
    public interface Exposition {
        /**
         * @param contentType   {@link #PROMETHEUS_TEXT} or {@link #OPENMETRICS_TEXT}
         * @param includedNames the metric names asked for, or null for all
         */
        String render(String contentType, Set<String> includedNames);
    }

    private final HostPolicy hosts;
    private final AtomicLong forbidden = new AtomicLong();
    private DisposableServer server;

    private MetricsServer(MetricsConfig config) {
        this.hosts = new HostPolicy(config.address(), config.allowHosts());
    }

    /**
     * Binds {@code config}'s address and serves from then on.
     *
     * @param scrape the exposition in the content type it is given, of the names asked for
     */
    public static MetricsServer start(MetricsConfig config, Exposition scrape) {
        MetricsServer metrics = new MetricsServer(config);
        metrics.server = HttpServer.create()
                .host(config.address())
                .port(config.port())
                .handle((request, response) -> {
                    String host = request.requestHeaders().get(HttpHeaderNames.HOST);
                    if (!metrics.hosts.allows(host)) {
                        metrics.forbidden.incrementAndGet();
                        return response.status(HttpResponseStatus.FORBIDDEN).send(Mono.fromSupplier(() -> text(
                                "Host '" + clip(host) + "' is not this node's address; use its IP address, or start "
                                        + "the node with --rest-allow-host to accept a name\n")));
                    }
                    QueryStringDecoder uri = new QueryStringDecoder(request.uri());
                    if (!uri.rawPath().equals("/metrics") || !request.method().equals(HttpMethod.GET)) {
                        return response.status(HttpResponseStatus.NOT_FOUND).send(Mono.fromSupplier(() -> text("only GET /metrics is served here\n")));
                    }
                    Set<String> names;
                    try {
                        names = includedNames(uri.parameters().get("name[]"));
                    } catch (IllegalArgumentException e) {
                        return response.status(HttpResponseStatus.BAD_REQUEST).send(Mono.fromSupplier(() -> text(e.getMessage() + "\n")));
                    }
                    // a scrape reads RocksDB properties and /proc; keep it off the network threads. The answer is a
                    // heap buffer wrapping the text's bytes, not a pooled one: when the scraper has hung up by the time
                    // it is ready, Reactor Netty drops it unwritten and unreleased, which for a heap wrapper is garbage
                    // like any other and for a pooled buffer was a leak (MetricsServerTest reproduces it)
                    String type = contentType(request.requestHeaders().get(HttpHeaderNames.ACCEPT));
                    return response.header(HttpHeaderNames.CONTENT_TYPE, type)
                            .send(Mono.fromSupplier(() -> text(scrape.render(type, names))).subscribeOn(Schedulers.boundedElastic()));
                })
                .bindNow();
        return metrics;
    }

    /** Registers the count of requests refused for their {@code Host}. */
    public void bind(MeterRegistry registry) {
        FunctionCounter.builder("waku.metrics.requests.forbidden", forbidden, AtomicLong::get)
                .description("/metrics requests refused (403) because their Host is not this node's address (DNS rebinding)")
                .register(registry);
    }

    private static String clip(String value) {
        return value.length() <= 100 ? value : value.substring(0, 100) + "...";
    }

    /**
     * The {@code name[]} values as a set, each also without a sample suffix ({@code _total}, {@code _bucket}...), null
     * when there are none (everything is rendered).
     */
    static Set<String> includedNames(List<String> values) {
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > MAX_NAMES) {
            throw new IllegalArgumentException("at most " + MAX_NAMES + " name[] parameters, got " + values.size());
        }
        Set<String> names = new LinkedHashSet<>();
        for (String name : values) {
            if (!METRIC_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("not a metric name: " + name);
            }
            names.add(name);
            // the registry matches family names; scrapers write the sample names they see (a counter's _total, a
            // histogram's _bucket), so both are taken
            for (String suffix : SAMPLE_SUFFIXES) {
                if (name.endsWith(suffix) && name.length() > suffix.length()) {
                    names.add(name.substring(0, name.length() - suffix.length()));
                }
            }
        }
        return names;
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
