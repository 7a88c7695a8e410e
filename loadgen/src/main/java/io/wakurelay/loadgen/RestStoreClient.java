package io.wakurelay.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A node's store, read over its REST API ({@code GET /store/v3/messages}): the hashes it archived since the last call,
 * and which of a list it holds. Not the node's {@code io.wakurelay.node.rest.RemoteStore}, which asks another node's
 * store over libp2p.
 */
final class RestStoreClient {
    private static final int MAX_HASHES_PER_QUERY = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String pubsubTopic;
    private final String contentTopic;
    private String cursor;

    RestStoreClient(String restAddress, String pubsubTopic, String contentTopic) {
        this.base = "http://" + restAddress;
        this.pubsubTopic = pubsubTopic;
        this.contentTopic = contentTopic;
    }

    /** Pages of 100 read by one {@link #newHashes} call at most. */
    static final int MAX_PAGES_PER_POLL = 1_000;

    /**
     * The hashes stored since the last call, in (timestamp, hash) order from {@code startTimeNanos}: follows
     * the store's own pagination cursor, so each message is seen once.
     */
    List<String> newHashes(long startTimeNanos) {
        List<String> out = new ArrayList<>();
        // a store that kept answering cursors (or empty pages with one) held this loop and its list for ever: at most
        // MAX_PAGES_PER_POLL pages a call, the rest on the next call from the same cursor
        for (int pages = 0; pages < MAX_PAGES_PER_POLL; pages++) {
            String query = "pubsubTopic=" + enc(pubsubTopic) + "&contentTopics=" + enc(contentTopic) + "&startTime=" + startTimeNanos
                    + "&pageSize=100&ascending=true&includeData=false" + (cursor == null ? "" : "&cursor=" + cursor);
            JsonNode page = get(query);
            JsonNode messages = page.get("messages");
            for (JsonNode m : messages) {
                out.add(m.get("messageHash").asText());
            }
            if (messages.size() > 0) {
                cursor = messages.get(messages.size() - 1).get("messageHash").asText();
            }
            if (!page.hasNonNull("paginationCursor") || messages.isEmpty()) {
                return out;
            }
        }
        return out;
    }

    /** Which of {@code hashes} the store holds. */
    Set<String> present(List<String> hashes) {
        Set<String> found = new HashSet<>();
        for (int i = 0; i < hashes.size(); i += MAX_HASHES_PER_QUERY) {
            List<String> chunk = hashes.subList(i, Math.min(hashes.size(), i + MAX_HASHES_PER_QUERY));
            JsonNode page = get("hashes=" + String.join(",", chunk) + "&pageSize=100");
            page.get("messages").forEach(m -> found.add(m.get("messageHash").asText()));
        }
        return found;
    }

    private JsonNode get(String query) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/store/v3/messages?" + query))
                .timeout(Duration.ofSeconds(30)).GET().build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("store query answered " + response.statusCode() + ": " + body.path("statusDesc").asText());
            }
            return body;
        } catch (IOException e) {
            throw new IllegalStateException("store query to " + base + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
