package io.wakurelay.discovery.peerexchange;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import java.time.Duration;
import java.util.Objects;

/**
 * Peer exchange as a finder ({@link PeerExchangeDiscovery}): the node asked, how many records, how often.
 *
 * @param node     the node asked at start and every {@code interval} ({@code --peer-exchange-node}); null: none, and
 *                 the finder does not run
 * @param numPeers records asked for in one request (nwaku's {@code DefaultPXNumPeersReq}, 5); of an answer with more,
 *                 the first {@code numPeers} are used
 * @param interval time between two requests (nwaku's loop: 1 minute); a round that takes longer delays the next
 */
@RecordBuilder
public record PeerExchangeDiscoveryConfig(Multiaddr node, int numPeers, Duration interval) {
    /** nwaku's most records in one answer ({@code MaxPeersCacheSize}): asking for more gets no more. */
    public static final int NWAKU_MAX_PEERS = 60;

    public static final PeerExchangeDiscoveryConfig DEFAULTS = new PeerExchangeDiscoveryConfig(null, 5,
            Duration.ofMinutes(1));

    public PeerExchangeDiscoveryConfig {
        if (node != null && node.peerId().isEmpty()) {
            throw new IllegalArgumentException("the peer exchange node's address must end in /p2p/<peer id>: " + node);
        }
        if (numPeers < 1 || numPeers > NWAKU_MAX_PEERS) {
            throw new IllegalArgumentException("numPeers must be in 1.." + NWAKU_MAX_PEERS + ", was " + numPeers);
        }
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the peer exchange interval must be positive, was " + interval);
        }
    }

    public PeerExchangeDiscoveryConfigBuilder toBuilder() {
        return PeerExchangeDiscoveryConfigBuilder.builder(this);
    }
}
