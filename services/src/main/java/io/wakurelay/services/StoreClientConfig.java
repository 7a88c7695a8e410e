package io.wakurelay.services;

import java.time.Duration;

/**
 * How the Store v3 client ({@link StoreClient}) bounds a query of another node's store.
 *
 * @param maxResponseBytes the largest response read; a larger one fails the query (300). nwaku does not bound its
 *                         pages in bytes: 16 MiB holds a page of 100 messages of the network's largest size
 * @param timeout          time from the dial to the whole response; past it the query fails (504) and its stream
 *                         is reset
 */
public record StoreClientConfig(int maxResponseBytes, Duration timeout) {
    public static final StoreClientConfig DEFAULTS = new StoreClientConfig(16 * 1024 * 1024, Duration.ofSeconds(20));

    public StoreClientConfig {
        if (maxResponseBytes < StoreLimits.MIN_PAGE_BYTES) {
            throw new IllegalArgumentException("maxResponseBytes must be at least " + StoreLimits.MIN_PAGE_BYTES
                    + ", was " + maxResponseBytes);
        }
        Durations.positive("timeout", timeout);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** Changes some fields of a config; {@link #build()} validates the result. */
    public static final class Builder {
        private int maxResponseBytes;
        private Duration timeout;

        private Builder(StoreClientConfig c) {
            maxResponseBytes = c.maxResponseBytes;
            timeout = c.timeout;
        }

        public Builder maxResponseBytes(int v) {
            maxResponseBytes = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = v;
            return this;
        }

        public StoreClientConfig build() {
            return new StoreClientConfig(maxResponseBytes, timeout);
        }
    }
}
