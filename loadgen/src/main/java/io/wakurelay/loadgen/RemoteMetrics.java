package io.wakurelay.loadgen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** Reads a node's /metrics (Prometheus text) for the counters and memory of a node in another process. */
final class RemoteMetrics {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;

    RemoteMetrics(String metricsAddress) {
        this.uri = URI.create("http://" + metricsAddress + "/metrics");
    }

    String scrape() {
        return scrape(uri);
    }

    /** Only the named metrics (the node renders those alone: a sample every 100 ms must not cost it a full scrape). */
    String scrape(String... names) {
        StringBuilder query = new StringBuilder();
        for (String name : names) {
            query.append(query.length() == 0 ? "?" : "&").append("name%5B%5D=").append(name);
        }
        return scrape(URI.create(uri + query.toString()));
    }

    private String scrape(URI uri) {
        try {
            return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Sum of every sample named {@code name}, whatever its labels; 0 when absent. */
    static double sum(String exposition, String name) {
        return PrometheusText.sum(exposition, name, Map.of());
    }

    /**
     * A scrape during which no collection ran: one read between two that show the same collection count and a young
     * generation that did not shrink. A collection in the middle of a scrape, after the allocation counter was read
     * and before the young generation was, would hide the young generation's bytes (megabytes) from
     * {@link #allocated}; it made the allocation per query of a short run come out negative.
     */
    String scrapeBetweenCollections() {
        String first = scrape();
        for (int attempt = 0; attempt < 10; attempt++) {
            String middle = scrape();
            String last = scrape();
            if (collections(first) == collections(last) && youngUsed(last) >= youngUsed(first)) {
                return middle;
            }
            first = last;
        }
        return scrape(); // collections all the time: take one as it comes
    }

    /** Collections the node's JVM ran (0 before its first: the timer appears with it). */
    static double collections(String exposition) {
        return sum(exposition, "jvm_gc_pause_seconds_count");
    }

    /**
     * Heap bytes the node allocated between two scrapes: its GC allocation counter (bytes the collections found
     * allocated) plus the growth of the young generation since, so that allocations not yet collected count.
     */
    static double allocated(String before, String after) {
        return sum(after, "jvm_gc_memory_allocated_bytes_total") - sum(before, "jvm_gc_memory_allocated_bytes_total")
                + youngUsed(after) - youngUsed(before);
    }

    /** Eden and survivor spaces in use (G1's or another collector's young generation). */
    static double youngUsed(String exposition) {
        double total = 0;
        for (PrometheusText.Sample s : PrometheusText.parse(exposition)) {
            // the pool is Micrometer's id label: "G1 Eden Space", "G1 Survivor Space", "PS Eden Space", ...
            if (s.name().equals("jvm_memory_used_bytes") && "heap".equals(s.labels().get("area"))
                    && s.labels().values().stream().anyMatch(v -> v.contains("Eden") || v.contains("Survivor"))) {
                total += s.value();
            }
        }
        return total;
    }

    /**
     * The highest heap in use, resident set size and Netty direct memory of the node behind {@code metrics},
     * read every {@code interval} until closed (a missed read is skipped). A remote node's heap can only be sampled,
     * so its peak is a lower bound (an in-process node's is exact, see {@link MemorySampler}).
     */
    static final class Peaks implements AutoCloseable {
        private final RemoteMetrics metrics;
        private final Periodic sampling;
        private volatile double heapMb;
        private volatile double rssMb;
        private volatile double directMb;

        Peaks(RemoteMetrics metrics, Duration interval) {
            this.metrics = metrics;
            this.sampling = new Periodic("remote-memory-sampler", interval, this::read);
        }

        private void read() {
            String exposition = metrics.scrape("jvm_memory_used_bytes", "waku_process_rss_bytes", "waku_netty_direct_memory_used_bytes");
            double mb = 1024.0 * 1024.0;
            heapMb = Math.max(heapMb, PrometheusText.sum(exposition, "jvm_memory_used_bytes", Map.of("area", "heap")) / mb);
            rssMb = Math.max(rssMb, sum(exposition, "waku_process_rss_bytes") / mb);
            directMb = Math.max(directMb, sum(exposition, "waku_netty_direct_memory_used_bytes") / mb);
        }

        double heapMb() {
            return heapMb;
        }

        double rssMb() {
            return rssMb;
        }

        double directMb() {
            return directMb;
        }

        @Override
        public void close() {
            sampling.close();
        }
    }
}
