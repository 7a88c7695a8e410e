package io.wakurelay.services.peerexchange;

import io.wakurelay.services.RateLimit;
import io.wakurelay.services.Durations;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;
import java.util.Objects;

/**
 * How the peer exchange server ({@link PeerExchangeService}) bounds its work. Validated when built; {@link #DEFAULTS}
 * is the one source of every default.
 *
 * @param maxPeersPerResponse the most records one answer carries, whatever {@code num_peers} asks (nwaku's
 *                            {@code MaxPeersCacheSize}, 60)
 * @param maxRequestBytes     the largest request read (a request is one varint: a few bytes; nwaku reads up to
 *                            1.6 MB, a bound that protects nothing); a larger length prefix is answered 400 before
 *                            its body is read
 * @param rateLimit           requests per peer; past it a request is answered 429
 * @param requestTimeout      time a peer has to send its whole request (and, after the answer, to close its side)
 *                            before its stream is reset
 */
@RecordBuilder
public record PeerExchangeConfig(int maxPeersPerResponse, int maxRequestBytes, RateLimit rateLimit,
                                 Duration requestTimeout) {
    public static final String PROTOCOL_ID = "/vac/waku/peer-exchange/2.0.0-alpha1";
    /** nwaku's {@code MaxPeersCacheSize}: the most records it puts into one answer. */
    public static final int NWAKU_MAX_PEERS = 60;

    /**
     * nwaku's cap; 1 KiB of request; a burst of 30 requests then one every 2 s per peer (nwaku leaves px unlimited
     * by default; js-waku asks each connected peer every 30 s).
     */
    public static final PeerExchangeConfig DEFAULTS = new PeerExchangeConfig(NWAKU_MAX_PEERS, 1024,
            RateLimit.of(30, Duration.ofMinutes(1)), Duration.ofSeconds(10));

    public PeerExchangeConfig {
        Objects.requireNonNull(rateLimit, "rateLimit");
        if (maxPeersPerResponse < 1 || maxPeersPerResponse > 1000) {
            throw new IllegalArgumentException("maxPeersPerResponse must be in 1..1000, was " + maxPeersPerResponse);
        }
        if (maxRequestBytes < 16) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 16, was " + maxRequestBytes);
        }
        Durations.positive("requestTimeout", requestTimeout);
    }

    public PeerExchangeConfigBuilder toBuilder() {
        return PeerExchangeConfigBuilder.builder(this);
    }

    public static PeerExchangeConfigBuilder builder() {
        return PeerExchangeConfigBuilder.builder(DEFAULTS);
    }
}
