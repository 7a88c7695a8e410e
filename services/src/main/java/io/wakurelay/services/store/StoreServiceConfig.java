package io.wakurelay.services.store;

import io.soabase.recordbuilder.core.RecordBuilder;

import io.wakurelay.services.Durations;
import io.wakurelay.services.RateLimit;
import java.time.Duration;
import java.util.Objects;

/**
 * How the Store v3 server ({@link StoreService}) bounds a peer's requests; what a query may take (slots, page bytes)
 * is {@link StoreLimits}, shared with every other way a query arrives. Validated when built; {@link #DEFAULTS} is the one
 * source of every default.
 *
 * @param maxRequestBytes      the largest request accepted (its length prefix says; a larger one is answered 400
 *                             before its body is read). 100 hashes and 10 long topics fit in 64 KiB
 * @param rateLimit            requests per peer; past it a request is answered 429
 * @param requestTimeout       time a peer has to send its whole request (and, after the response, to close its
 *                             side) before its stream is reset
 */
@RecordBuilder
public record StoreServiceConfig(int maxRequestBytes, RateLimit rateLimit, Duration requestTimeout) {
    public static final String PROTOCOL_ID = "/vac/waku/store-query/3.0.0";

    public static final StoreServiceConfig DEFAULTS = new StoreServiceConfig(64 * 1024,
            RateLimit.of(30, Duration.ofSeconds(1)), Duration.ofSeconds(10));

    public StoreServiceConfig {
        Objects.requireNonNull(rateLimit, "rateLimit");
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1024, was " + maxRequestBytes);
        }
        Durations.positive("requestTimeout", requestTimeout);
    }

    public StoreServiceConfigBuilder toBuilder() {
        return StoreServiceConfigBuilder.builder(this);
    }

    public static StoreServiceConfigBuilder builder() {
        return StoreServiceConfigBuilder.builder(DEFAULTS);
    }
}
