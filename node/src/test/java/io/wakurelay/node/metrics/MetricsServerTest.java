package io.wakurelay.node.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsServerTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MetricsServer server = MetricsServer.start(MetricsConfig.builder().port(0).build(), registry::scrape);
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void close() {
        server.close();
        registry.close();
    }

    private HttpResponse<String> scrapeOf(MetricsServer target) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target.address().getPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> scrape(String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics"));
        if (accept != null) {
            request.header("Accept", accept);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void scrapersThatHangUpBeforeTheAnswerLeaveNoBufferBehind() throws Exception {
        // a slow scrape, so that the scraper is gone when the text is ready: the answer's buffer must still be
        // released (LeakCheckExtension fails the class otherwise)
        String text = "x".repeat(64 * 1024);
        try (MetricsServer slow = MetricsServer.start(MetricsConfig.builder().port(0).build(), (type, names) -> {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return text;
        })) {
            for (int i = 0; i < 300; i++) {
                try (java.net.Socket s = new java.net.Socket("127.0.0.1", slow.address().getPort())) {
                    s.setSoLinger(true, 0); // close with a reset, at once
                    s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    if (i % 2 == 0) {
                        Thread.sleep(2);
                    }
                }
            }
            assertThat(scrapeOf(slow).statusCode()).as("it still answers").isEqualTo(200);
        }
    }

    @Test
    void aScraperThatAcceptsOpenMetricsGetsOpenMetrics() throws Exception {
        Counter.builder("waku.test.events").register(registry).increment();
        // what Prometheus 2.x sends by default
        HttpResponse<String> r = scrape("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue(MetricsServer.OPENMETRICS_TEXT);
        assertThat(r.body()).contains("# TYPE waku_test_events counter", "waku_test_events_total 1.0").endsWith("# EOF\n");
    }

    @Test
    void aScraperThatSaysNothingGetsThePrometheusTextFormat() throws Exception {
        Counter.builder("waku.test.events").register(registry).increment();
        for (String accept : new String[] {null, "text/plain", "*/*"}) {
            HttpResponse<String> r = scrape(accept);

            assertThat(r.headers().firstValue("Content-Type")).as(accept).hasValue(MetricsServer.PROMETHEUS_TEXT);
            assertThat(r.body()).contains("# TYPE waku_test_events_total counter", "waku_test_events_total 1.0")
                    .doesNotContain("# EOF");
        }
    }

    @Test
    void onlyGetMetricsIsServed() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.address().getPort() + "/other")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The status line of a request the JDK's client would refuse to send. */
    private String rawStatusLine(String pathAndQuery) throws IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.address().getPort())) {
            s.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
        }
    }

    private String rawRequest(MetricsServer target, String host) throws IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", target.address().getPort())) {
            s.getOutputStream().write(("GET /metrics HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    /**
     * Issue 43's N7: DNS rebinding makes a web page's browser send its requests to 127.0.0.1:8008 under the
     * attacker's name; as the REST API, /metrics answers only its own address, {@code localhost} and the names of
     * {@code --rest-allow-host}, and counts the refusals.
     */
    @Test
    void aForeignHostNameIsRefusedAsTheRestApiRefusesIt() throws Exception {
        Counter.builder("waku.test.events").register(registry).increment();
        server.bind(registry);
        int port = server.address().getPort();
        String rebound = rawRequest(server, "rebind.attacker.example:" + port);
        assertThat(rebound).startsWith("HTTP/1.1 403").contains("--rest-allow-host").doesNotContain("waku_test_events");
        assertThat(rawRequest(server, "127.0.0.2:" + port)).as("another IP than the one bound").startsWith("HTTP/1.1 403");
        assertThat(rawRequest(server, "127.0.0.1:" + port)).startsWith("HTTP/1.1 200").contains("waku_test_events_total 1.0");
        assertThat(rawRequest(server, "localhost:" + port)).startsWith("HTTP/1.1 200");
        assertThat(scrape(null).body()).contains("waku_metrics_requests_forbidden_total 2.0");
        try (MetricsServer named = MetricsServer.start(MetricsConfig.builder().port(0).allowHosts(java.util.List.of("node-a"))
                .build(), registry::scrape)) {
            assertThat(rawRequest(named, "node-a:8008")).as("a --rest-allow-host name, as Prometheus scrapes in compose")
                    .startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void nameParametersRestrictTheAnswerToThoseMetrics() throws Exception {
        Counter.builder("waku.test.events").register(registry).increment();
        Counter.builder("waku.other.events").register(registry).increment(2);
        io.micrometer.core.instrument.Gauge.builder("waku.test.level", () -> 7).register(registry);

        HttpResponse<String> r = get("/metrics?name[]=waku_test_events_total&name%5B%5D=waku_test_level");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("waku_test_events_total 1.0", "waku_test_level 7.0").doesNotContain("waku_other_events");
        assertThat(get("/metrics").body()).as("without names, everything").contains("waku_other_events_total 2.0");
    }

    @Test
    void tooManyOrMalformedNamesAreRefusedWithTheReason() throws Exception {
        String many = "name[]=a" + "&name[]=a".repeat(MetricsServer.MAX_NAMES);
        HttpResponse<String> tooMany = get("/metrics?" + many);
        HttpResponse<String> malformed = get("/metrics?name[]=" + java.net.URLEncoder.encode("a{b}", java.nio.charset.StandardCharsets.UTF_8));

        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("at most " + MetricsServer.MAX_NAMES);
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.body()).contains("not a metric name: a{b}");
        assertThat(rawStatusLine("/metrics?name[]=%zz")).as("a broken escape").contains(" 400 ");
        assertThat(get("/metrics").statusCode()).as("still serving").isEqualTo(200);
    }
}
