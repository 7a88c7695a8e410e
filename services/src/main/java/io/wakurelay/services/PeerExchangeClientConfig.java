package io.wakurelay.services;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;

/**
 * How the peer exchange client ({@link PeerExchangeClient}) asks, and how often the node asks its
 * {@code --peer-exchange-node} ({@link PeerExchangeLoop}).
 *
 * @param numPeers         records asked for in one request (nwaku's {@code DefaultPXNumPeersReq}, 5); of an answer
 *                         with more, the first {@code numPeers} are used
 * @param interval         time between two requests to the peer exchange node (nwaku's loop: 1 minute)
 * @param maxResponseBytes the largest answer read; a larger one fails the request. 64 KiB holds nwaku's most, 60
 *                         records of EIP-778's 300 bytes
 * @param timeout          time from the dial to the whole answer, and then for dialling the peers found
 */
@RecordBuilder
public record PeerExchangeClientConfig(int numPeers, Duration interval, int maxResponseBytes, Duration timeout) {
    public static final PeerExchangeClientConfig DEFAULTS = new PeerExchangeClientConfig(5, Duration.ofMinutes(1),
            64 * 1024, Duration.ofSeconds(10));

    public PeerExchangeClientConfig {
        if (numPeers < 1 || numPeers > PeerExchangeConfig.NWAKU_MAX_PEERS) {
            throw new IllegalArgumentException("numPeers must be in 1.." + PeerExchangeConfig.NWAKU_MAX_PEERS
                    + ", was " + numPeers);
        }
        Durations.positive("interval", interval);
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
