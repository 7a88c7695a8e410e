package io.wakurelay.services;

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

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** Changes some fields of a config; {@link #build()} validates the result. */
    public static final class Builder {
        private int maxInFlight;
        private Duration timeout;
        private int maxResponseBytes;

        private Builder(LightpushClientConfig c) {
            maxInFlight = c.maxInFlight;
            timeout = c.timeout;
            maxResponseBytes = c.maxResponseBytes;
        }

        public Builder maxInFlight(int v) {
            maxInFlight = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = v;
            return this;
        }

        public Builder maxResponseBytes(int v) {
            maxResponseBytes = v;
            return this;
        }

        public LightpushClientConfig build() {
            return new LightpushClientConfig(maxInFlight, timeout, maxResponseBytes);
        }
    }
}
