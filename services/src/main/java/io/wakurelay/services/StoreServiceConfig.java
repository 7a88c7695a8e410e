package io.wakurelay.services;

import java.time.Duration;
import java.util.Objects;

/**
 * How the Store v3 server ({@link StoreService}) bounds its work. Validated when built; {@link #DEFAULTS} is the one
 * source of every default.
 *
 * @param maxRequestBytes      the largest request accepted (its length prefix says; a larger one is answered 400
 *                             before its body is read). 100 hashes and 10 long topics fit in 64 KiB
 * @param maxResponseBytes     the most bytes one response may take; a page that would be larger ends early, with a
 *                             cursor. js-waku reads responses of at most 4 MiB (it-length-prefixed's default)
 * @param maxConcurrentQueries queries running at once on the archive; past it a query is answered 503 at once
 * @param rateLimit            requests per peer; past it a request is answered 429
 * @param requestTimeout       time a peer has to send its whole request (and, after the response, to close its
 *                             side) before its stream is reset
 */
public record StoreServiceConfig(int maxRequestBytes, int maxResponseBytes, int maxConcurrentQueries,
                                 RateLimit rateLimit, Duration requestTimeout) {
    public static final String PROTOCOL_ID = "/vac/waku/store-query/3.0.0";
    /** The smallest response limit: a page must hold at least one message of the network's largest size (150 KiB). */
    public static final int MIN_RESPONSE_BYTES = 256 * 1024;

    public static final StoreServiceConfig DEFAULTS = new StoreServiceConfig(64 * 1024, 2 * 1024 * 1024, 16,
            RateLimit.of(30, Duration.ofSeconds(1)), Duration.ofSeconds(10));

    public StoreServiceConfig {
        Objects.requireNonNull(rateLimit, "rateLimit");
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1024, was " + maxRequestBytes);
        }
        if (maxResponseBytes < MIN_RESPONSE_BYTES) {
            throw new IllegalArgumentException("maxResponseBytes must be at least " + MIN_RESPONSE_BYTES
                    + " (one message of the largest size), was " + maxResponseBytes);
        }
        if (maxConcurrentQueries < 1) {
            throw new IllegalArgumentException("maxConcurrentQueries must be positive, was " + maxConcurrentQueries);
        }
        Durations.positive("requestTimeout", requestTimeout);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** Changes some fields of a config; {@link #build()} validates the result. */
    public static final class Builder {
        private int maxRequestBytes;
        private int maxResponseBytes;
        private int maxConcurrentQueries;
        private RateLimit rateLimit;
        private Duration requestTimeout;

        private Builder(StoreServiceConfig c) {
            maxRequestBytes = c.maxRequestBytes;
            maxResponseBytes = c.maxResponseBytes;
            maxConcurrentQueries = c.maxConcurrentQueries;
            rateLimit = c.rateLimit;
            requestTimeout = c.requestTimeout;
        }

        public Builder maxRequestBytes(int v) {
            maxRequestBytes = v;
            return this;
        }

        public Builder maxResponseBytes(int v) {
            maxResponseBytes = v;
            return this;
        }

        public Builder maxConcurrentQueries(int v) {
            maxConcurrentQueries = v;
            return this;
        }

        public Builder rateLimit(RateLimit v) {
            rateLimit = v;
            return this;
        }

        public Builder requestTimeout(Duration v) {
            requestTimeout = v;
            return this;
        }

        public StoreServiceConfig build() {
            return new StoreServiceConfig(maxRequestBytes, maxResponseBytes, maxConcurrentQueries, rateLimit, requestTimeout);
        }
    }
}
