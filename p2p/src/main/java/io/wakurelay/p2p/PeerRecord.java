package io.wakurelay.p2p;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;

import java.util.List;
import java.util.Set;

/**
 * What a peer said of itself in identify, as last heard.
 *
 * @param listenAddresses where it says it can be dialled
 * @param observedAddress this node's address as the peer sees it (null when not said)
 */
public record PeerRecord(PeerId peerId, List<Multiaddr> listenAddresses, Set<String> protocols, String agentVersion,
                         String protocolVersion, Multiaddr observedAddress) {
    public PeerRecord {
        listenAddresses = List.copyOf(listenAddresses);
        protocols = Set.copyOf(protocols);
    }

    /** Nothing known yet beyond the id. */
    public static PeerRecord unknown(PeerId peerId) {
        return new PeerRecord(peerId, List.of(), Set.of(), "", "", null);
    }
}
