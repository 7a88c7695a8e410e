package io.wakurelay.services.lightpush;

import io.soabase.recordbuilder.core.RecordBuilder;

import io.wakurelay.services.Durations;
import io.wakurelay.services.RateLimit;
import java.time.Duration;
import java.util.Objects;

/**
 * How the lightpush v3 server ({@link LightpushService}) bounds its work. Validated when built; {@link #DEFAULTS}
 * is the one source of every default.
 *
 * @param maxRequestBytes the largest request accepted (a larger length prefix is answered 413 before its body is
 *                        read); the message inside must also pass the relay's own size limit (413 too)
 * @param rateLimit       requests per peer; past it a request is answered 429
 * @param requestTimeout  time a peer has to send its whole request (and, after the response, to close its side)
 *                        before its stream is reset
 */
@RecordBuilder
public record LightpushConfig(int maxRequestBytes, RateLimit rateLimit, Duration requestTimeout) {
    public static final String PROTOCOL_ID = "/vac/waku/lightpush/3.0.0";

    /** Room for the network's largest message (153,600 bytes), its request id and pubsub topic. */
    public static final LightpushConfig DEFAULTS = new LightpushConfig(160 * 1024,
            RateLimit.of(30, Duration.ofSeconds(1)), Duration.ofSeconds(10));

    public LightpushConfig {
        Objects.requireNonNull(rateLimit, "rateLimit");
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1024, was " + maxRequestBytes);
        }
        Durations.positive("requestTimeout", requestTimeout);
    }

    public LightpushConfigBuilder toBuilder() {
        return LightpushConfigBuilder.builder(this);
    }

    public static LightpushConfigBuilder builder() {
        return LightpushConfigBuilder.builder(DEFAULTS);
    }
}
