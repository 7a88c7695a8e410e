package io.wakurelay.services.store;

import io.soabase.recordbuilder.core.RecordBuilder;

import io.wakurelay.services.Durations;
import java.time.Duration;

/**
 * How the Store v3 client ({@link StoreClient}) bounds a query of another node's store.
 *
 * @param maxResponseBytes the largest response read; a larger one fails the query (300). nwaku does not bound its
 *                         pages in bytes: 16 MiB holds a page of 100 messages of the network's largest size
 * @param timeout          time from the dial to the whole response; past it the query fails (504) and its stream
 *                         is reset
 */
@RecordBuilder
public record StoreClientConfig(int maxResponseBytes, Duration timeout) {
    public static final StoreClientConfig DEFAULTS = new StoreClientConfig(16 * 1024 * 1024, Duration.ofSeconds(20));

    public StoreClientConfig {
        if (maxResponseBytes < StoreLimits.MIN_PAGE_BYTES) {
            throw new IllegalArgumentException("maxResponseBytes must be at least " + StoreLimits.MIN_PAGE_BYTES
                    + ", was " + maxResponseBytes);
        }
        Durations.positive("timeout", timeout);
    }

    public StoreClientConfigBuilder toBuilder() {
        return StoreClientConfigBuilder.builder(this);
    }

    public static StoreClientConfigBuilder builder() {
        return StoreClientConfigBuilder.builder(DEFAULTS);
    }
}
