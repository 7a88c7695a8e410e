package io.wakurelay.p2p;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.Map;
import java.util.Set;

/**
 * What a layer above the host tells it of its peers, for trimming inbound connections (ADR 0086): which peers must
 * be kept (go-libp2p's connection manager {@code Protect}: gossipsub protects its mesh peers) and how much the others
 * are worth (its tag values). Asked for when the host decides, rather than set as they change: the relay and the
 * services answer from their own state, and nothing is left behind in the host when they forget a peer.
 *
 * <p>Registered with {@link Host#addPeerValues}. The host asks at most once per decision (a sweep, every second at
 * most, or a newcomer that finds every inbound slot taken), from one of its event loops: answer from memory, quickly,
 * without blocking, and never call back into the host's connection methods while holding a lock the host's callers
 * may hold.
 */
public interface PeerValues {
    /** Peers whose inbound connections must not be closed to trim: mesh peers, service clients in use. */
    Set<PeerId> protectedPeers();

    /**
     * How much the connections of other peers are worth, higher kept longer among those equally useful to the host
     * (a relay's peer score); a peer left out is worth 0. The values of several {@code PeerValues} add up.
     */
    default Map<PeerId, Integer> values() {
        return Map.of();
    }
}
