package io.wakurelay.loadgen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads a node's /metrics (Prometheus text) for the counters and memory of a node in another process. */
final class RemoteMetrics {
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;

    RemoteMetrics(String metricsAddress) {
        this.uri = URI.create("http://" + metricsAddress + "/metrics");
    }

    String scrape() {
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

    /** Sum of every sample of {@code name} (all label sets); 0 when absent. */
    static double sum(String exposition, String name) {
        double total = 0;
        for (String line : exposition.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                String value = line.substring(line.lastIndexOf(' ') + 1);
                total += Double.parseDouble(value);
            }
        }
        return total;
    }
}
