package io.wakurelay.node.rest;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.util.List;
import java.util.Objects;

/**
 * The REST API's settings; {@link #DEFAULTS} holds every default (flags, docs and tests take them from here).
 *
 * @param address              interface to bind (default 127.0.0.1: the API is local unless asked otherwise)
 * @param port                 TCP port (default 8645, as nwaku); 0 picks a free one
 * @param admin                whether /admin endpoints are served (default off)
 * @param maxBodyBytes         largest request body accepted; larger ones get 400 (as nwaku up to 16 MiB, 413 above)
 * @param cacheCapacity        messages kept per cached topic for GET /relay/v1/messages (oldest dropped)
 * @param maxStreams           concurrent Server-Sent Event streams; more get 503
 * @param streamBufferMessages messages buffered per stream for a slow reader before they are dropped (counted)
 * @param allowOrigins         browser origins allowed to call the API (nwaku's {@code --rest-allow-origin}: patterns
 *                             with {@code *} and {@code ?}, matched against the whole origin or the origin without
 *                             its scheme); a request with any other {@code Origin} header is refused (403)
 * @param allowHosts           host names accepted in the {@code Host} header besides IP literals of the bound address
 *                             and {@code localhost} (refusing other names defeats DNS rebinding); {@code *} accepts any
 * @param cacheBytes           bytes the relay caches of all topics may hold alive together (the buffers the kept
 *                             messages arrived in)
 * @param streamBufferBytes    bytes of events one Server-Sent Event stream may hold for its reader (it always
 *                             takes one event when empty, whatever its size)
 * @param streamsMemoryBytes   bytes of events all streams together may hold for their readers
 * @param contentTopics        content topics whose messages are cached from the start, for
 *                             {@code GET /relay/v1/auto/messages/{contentTopic}} (nwaku's {@code --content-topic})
 */
@RecordBuilder
public record RestConfig(String address, int port, boolean admin, int maxBodyBytes, int cacheCapacity, int maxStreams,
                         int streamBufferMessages, List<String> allowOrigins, List<String> allowHosts, long cacheBytes,
                         long streamBufferBytes, long streamsMemoryBytes, List<String> contentTopics) {
    public static final int DEFAULT_PORT = 8645;
    private static final long MIB = 1 << 20;
    public static final RestConfig DEFAULTS = new RestConfig("127.0.0.1", DEFAULT_PORT, false, (int) MIB, 50, 64, 256,
            List.of(), List.of(), 16 * MIB, MIB, 16 * MIB, List.of());

    public RestConfig {
        Objects.requireNonNull(address, "address");
        if (address.isBlank()) {
            throw new IllegalArgumentException("REST address must not be empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("REST port must be 0..65535, was " + port);
        }
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException("REST max body size must be at least 1 KiB, was " + maxBodyBytes);
        }
        if (cacheCapacity < 1) {
            throw new IllegalArgumentException("REST relay cache capacity must be positive, was " + cacheCapacity);
        }
        if (maxStreams < 0) {
            throw new IllegalArgumentException("max REST streams must not be negative, was " + maxStreams);
        }
        if (streamBufferMessages < 1) {
            throw new IllegalArgumentException("REST stream buffer must be positive, was " + streamBufferMessages);
        }
        if (cacheBytes < 0 || streamBufferBytes < 0 || streamsMemoryBytes < 0) {
            throw new IllegalArgumentException("REST cache and stream sizes must not be negative");
        }
        allowOrigins = List.copyOf(allowOrigins);
        allowHosts = List.copyOf(allowHosts);
        contentTopics = List.copyOf(contentTopics);
        if (contentTopics.size() > TopicCache.MAX_CONTENT_TOPICS) {
            throw new IllegalArgumentException("at most " + TopicCache.MAX_CONTENT_TOPICS + " content topics, was "
                    + contentTopics.size());
        }
        for (String origin : allowOrigins) {
            if (origin.isBlank()) {
                throw new IllegalArgumentException("an allowed origin must not be empty");
            }
        }
        for (String host : allowHosts) {
            if (host.isBlank() || host.contains(":") || host.contains("/")) {
                throw new IllegalArgumentException("an allowed host is a host name without port or scheme, was '" + host + "'");
            }
        }
    }

    public RestConfigBuilder toBuilder() {
        return RestConfigBuilder.builder(this);
    }

    public static RestConfigBuilder builder() {
        return DEFAULTS.toBuilder();
    }
}
