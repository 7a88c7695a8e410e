package io.wakurelay.services;

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

    public Builder toBuilder() {
        return new Builder(this);
    }

    public static Builder builder() {
        return new Builder(DEFAULTS);
    }

    /** Changes some fields of a config; {@link #build()} validates the result. */
    public static final class Builder {
        private int numPeers;
        private Duration interval;
        private int maxResponseBytes;
        private Duration timeout;

        private Builder(PeerExchangeClientConfig c) {
            numPeers = c.numPeers;
            interval = c.interval;
            maxResponseBytes = c.maxResponseBytes;
            timeout = c.timeout;
        }

        public Builder numPeers(int v) {
            numPeers = v;
            return this;
        }

        public Builder interval(Duration v) {
            interval = v;
            return this;
        }

        public Builder maxResponseBytes(int v) {
            maxResponseBytes = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = v;
            return this;
        }

        public PeerExchangeClientConfig build() {
            return new PeerExchangeClientConfig(numPeers, interval, maxResponseBytes, timeout);
        }
    }
}
