package io.wakurelay.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;

/** A small HTTP client for tests against a node's REST and metrics ports. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    /**
     * HTTP/1.1 as the node serves it: with the default HTTP_2 the JDK client asks each new connection for an h2c
     * upgrade, which the node ignores.
     */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    record Reply(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    private final String base;

    Http(InetSocketAddress address) {
        this.base = "http://" + address.getHostString() + ":" + address.getPort();
    }

    static String topic(String pubsubTopic) {
        return URLEncoder.encode(pubsubTopic, StandardCharsets.UTF_8);
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Reply post(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Reply put(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    Reply options(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
    }

    Reply delete(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(body)));
    }

    Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new AssertionError("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Opens a Server-Sent Events stream; the queue receives the JSON of each data line. */
    BlockingQueue<JsonNode> stream(String path) {
        BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).GET().build();
        HttpResponse<Stream<String>> response;
        try {
            response = CLIENT.send(request, HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new AssertionError("stream failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        if (response.statusCode() != 200) {
            throw new AssertionError("stream answered " + response.statusCode());
        }
        Thread reader = new Thread(() -> response.body().forEach(line -> {
            if (line.startsWith("data: ")) {
                try {
                    events.add(JSON.readTree(line.substring(6)));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }
        }), "sse-reader");
        reader.setDaemon(true);
        reader.start();
        return events;
    }

    /** The value of one sample line of a Prometheus text exposition, or -1 when absent. */
    static double metric(String exposition, String nameWithLabels) {
        for (String line : exposition.split("\n")) {
            if (line.startsWith(nameWithLabels + " ")) {
                return Double.parseDouble(line.substring(nameWithLabels.length() + 1).trim().split(" ")[0]);
            }
        }
        return -1;
    }
}
