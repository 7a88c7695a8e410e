package io.wakurelay.node.metrics;

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
import java.util.function.Supplier;

/** Serves {@code GET /metrics} in the Prometheus text exposition format on its own port. */
public final class MetricsServer implements AutoCloseable {
    private final DisposableServer server;

    public MetricsServer(String address, int port, Supplier<String> scrape) {
        this.server = HttpServer.create()
                .host(address)
                .port(port)
                .handle((request, response) -> {
                    String path = request.uri().split("\\?", 2)[0];
                    if (!path.equals("/metrics") || !request.method().equals(HttpMethod.GET)) {
                        return response.status(HttpResponseStatus.NOT_FOUND).sendString(Mono.just("only GET /metrics is served here\n"));
                    }
                    // a scrape reads RocksDB properties and /proc; keep it off the network threads
                    return response.header(HttpHeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
                            .sendString(Mono.fromSupplier(scrape).subscribeOn(Schedulers.boundedElastic()), StandardCharsets.UTF_8);
                })
                .bindNow();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
