package io.wakurelay.node.rest;

import java.util.Objects;

/**
 * The REST API's settings.
 *
 * @param address            interface to bind (default 127.0.0.1: the API is local unless asked otherwise)
 * @param port               TCP port (default 8645, as nwaku); 0 picks a free one
 * @param admin              whether /admin endpoints are served (default off)
 * @param maxBodyBytes       largest request body accepted; larger ones get 413
 * @param cacheCapacity      messages kept per REST-subscribed topic for GET /relay/v1/messages (oldest dropped)
 * @param maxStreams         concurrent Server-Sent Event streams; more get 503
 * @param streamBufferMessages messages buffered per stream for a slow reader before they are dropped (counted)
 */
public record RestConfig(String address, int port, boolean admin, int maxBodyBytes, int cacheCapacity, int maxStreams,
                         int streamBufferMessages) {
    public static final int DEFAULT_PORT = 8645;

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
    }

    public static RestConfig defaults() {
        return new RestConfig("127.0.0.1", DEFAULT_PORT, false, 1 << 20, 50, 64, 256);
    }
}
