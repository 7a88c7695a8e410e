package io.wakurelay.services.lightpush;

import io.soabase.recordbuilder.core.RecordBuilder;

import io.wakurelay.services.Durations;
import java.time.Duration;

/**
 * How the lightpush v3 client ({@link LightpushClient}) bounds the pushes it sends through a service node
 * ({@code --lightpushnode}). Validated when built; {@link #DEFAULTS} is the one source of every default.
 *
 * @param maxInFlight      pushes under way at once (dial to answer); one more is refused at once (503), so that REST
 *                         clients cannot make the node hold any number of streams to its service node
 * @param timeout          time from the dial to the answer; past it the push fails (503 "Push request timed out", as
 *                         nwaku's REST words its own 5 s limit) and its stream is reset
 * @param maxResponseBytes the largest answer read; a lightpush answer is a status and a short text
 */
@RecordBuilder
public record LightpushClientConfig(int maxInFlight, Duration timeout, int maxResponseBytes) {
    /** nwaku's REST gives a push 5 s ({@code FutTimeoutForPushRequestProcessing}). */
    public static final LightpushClientConfig DEFAULTS = new LightpushClientConfig(64, Duration.ofSeconds(5), 64 * 1024);

    public LightpushClientConfig {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, was " + maxInFlight);
        }
        if (maxResponseBytes < 1024) {
            throw new IllegalArgumentException("maxResponseBytes must be at least 1024, was " + maxResponseBytes);
        }
        Durations.positive("timeout", timeout);
    }

    public LightpushClientConfigBuilder toBuilder() {
        return LightpushClientConfigBuilder.builder(this);
    }

    public static LightpushClientConfigBuilder builder() {
        return LightpushClientConfigBuilder.builder(DEFAULTS);
    }
}
