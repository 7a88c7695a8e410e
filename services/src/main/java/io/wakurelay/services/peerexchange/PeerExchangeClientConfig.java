package io.wakurelay.services.peerexchange;

import io.wakurelay.services.Durations;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;

/**
 * How the peer exchange client ({@link PeerExchangeClient}) bounds one request; whom it asks, for how many records and
 * how often is discovery's (its peer exchange finder's config).
 *
 * @param maxResponseBytes the largest answer read; a larger one fails the request. 64 KiB holds nwaku's most, 60
 *                         records of EIP-778's 300 bytes
 * @param timeout          time from the dial to the whole answer
 */
@RecordBuilder
public record PeerExchangeClientConfig(int maxResponseBytes, Duration timeout) {
    public static final PeerExchangeClientConfig DEFAULTS = new PeerExchangeClientConfig(64 * 1024,
            Duration.ofSeconds(10));

    public PeerExchangeClientConfig {
        if (maxResponseBytes < 1024) {
            throw new IllegalArgumentException("maxResponseBytes must be at least 1024, was " + maxResponseBytes);
        }
        Durations.positive("timeout", timeout);
    }

    public PeerExchangeClientConfigBuilder toBuilder() {
        return PeerExchangeClientConfigBuilder.builder(this);
    }

    public static PeerExchangeClientConfigBuilder builder() {
        return PeerExchangeClientConfigBuilder.builder(DEFAULTS);
    }
}
