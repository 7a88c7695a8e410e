package io.wakurelay.services;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.wakurelay.archive.StoreQuery;
import io.wakurelay.p2p.Host;
import io.wakurelay.services.filter.FilterClient;
import io.wakurelay.services.filter.FilterClientConfig;
import io.wakurelay.services.filter.FilterTestClient;
import io.wakurelay.services.lightpush.LightpushClient;
import io.wakurelay.services.lightpush.LightpushClientConfig;
import io.wakurelay.services.lightpush.LightpushConfig;
import io.wakurelay.services.proto.LightPushRequest;
import io.wakurelay.services.store.StoreClient;
import io.wakurelay.services.store.StoreClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The services' meters, scraped as Prometheus shows them, against the table in docs/services.md, both ways. */
class ServiceMetricsTest {
    private static final Path DOC = Path.of("..", "docs", "services.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)` \\| ([^|]+) \\|");
    private static final Pattern SAMPLE = Pattern.compile("(?m)^(waku_(?:service|store|lightpush|filter)_[a-z0-9_]*)[{ ]");
    @TempDir
    Path dir;

    private record Documented(String name, String type) {
        Set<String> samples() {
            return type.startsWith("timer") || type.startsWith("summary")
                    ? Set.of(name + "_count", name + "_sum", name + "_max", name + "_bucket")
                    : Set.of(name);
        }
    }

    private static List<Documented> documented() throws Exception {
        List<Documented> rows = new ArrayList<>();
        boolean inMetrics = false;
        for (String line : Files.readAllLines(DOC)) {
            if (line.startsWith("## ")) {
                inMetrics = line.equals("## Metrics");
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (inMetrics && row.find()) {
                rows.add(new Documented(row.group(1), row.group(2).trim()));
            }
        }
        return rows;
    }

    @Test
    void everyDocumentedMetricIsExportedAndEveryExportedOneIsDocumented() throws Exception {
        List<Documented> documented = documented();
        assertThat(documented).hasSizeGreaterThanOrEqualTo(20);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (ServiceNode node = new ServiceNode(0, dir, ServiceNode.Options.all(), registry);
             Host client = RawExchange.clientHost(60);
             StoreClient storeClient = StoreClient.start(StoreClientConfig.DEFAULTS, client, registry);
             LightpushClient lightpushClient = LightpushClient.start(LightpushClientConfig.DEFAULTS, client, registry);
             FilterClient filterClient = FilterClient.start(FilterClientConfig.builder().serviceNode(node.address()).build(),
                     client, (topic, message) -> { }, registry);
             FilterTestClient subscriber = new FilterTestClient(61, true)) {
            storeClient.query(node.address(), StoreQuery.builder().pubsubTopic(ServiceNode.TOPIC).build()).block(Duration.ofSeconds(10));
            RawExchange.run(client, node.address(), LightpushConfig.PROTOCOL_ID, RawExchange.frame(LightPushRequest.newBuilder()
                    .setRequestId("m").setPubsubTopic(ServiceNode.TOPIC)
                    .setMessage(Messages.message(1, 10, Messages.nowNanos(), ServiceNode.CONTENT_TOPIC)).build()), true,
                    Duration.ofSeconds(10));
            lightpushClient.push(node.address(), ServiceNode.TOPIC, Messages.message(2, 10, Messages.nowNanos(),
                    ServiceNode.CONTENT_TOPIC)).block(Duration.ofSeconds(10));
            assertThat(subscriber.subscribe(node, ServiceNode.CONTENT_TOPIC).getStatusCode()).isEqualTo(200);

            String scrape = registry.scrape();

            Set<String> expected = new TreeSet<>();
            for (Documented metric : documented) {
                assertThat(scrape).as("%s (%s) in the scrape", metric.name(), metric.type())
                        .containsPattern("(?m)^" + metric.samples().stream().filter(s -> !s.endsWith("_bucket")).findFirst().orElseThrow() + "[{ ]");
                expected.addAll(metric.samples());
            }
            Set<String> exported = new TreeSet<>();
            Matcher m = SAMPLE.matcher(scrape);
            while (m.find()) {
                exported.add(m.group(1));
            }
            assertThat(exported).hasSizeGreaterThan(25);
            assertThat(expected).as("documented in docs/services.md").containsAll(exported);
            assertThat(scrape).contains("waku_store_queries_total 1.0");
            assertThat(scrape).contains("waku_lightpush_v3_errors_total{type=\"505\"} 2.0");
            assertThat(scrape).contains("waku_lightpush_client_requests_total{outcome=\"error_status\"} 1.0");
            assertThat(scrape).contains("waku_filter_subscriptions 1.0");
            assertThat(scrape).containsPattern("waku_service_requests_total\\{service=\"/vac/waku/store-query/3.0.0\",state=\"served\"} 1.0");
        }
        assertThat(registry.scrape()).as("every service removed its meters").doesNotContain("waku_filter_").doesNotContain("waku_store_")
                .doesNotContain("waku_lightpush_client_");
    }
}
