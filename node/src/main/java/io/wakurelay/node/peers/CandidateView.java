package io.wakurelay.node.peers;

import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.util.List;

/**
 * A candidate as the admin API shows it.
 *
 * @param addresses      its TCP and WebSocket addresses, as its record names them
 * @param failedAttempts dials that failed in a row (0 after one that connected)
 */
public record CandidateView(PeerId peerId, List<Multiaddr> addresses, Origin origin, int failedAttempts) {
}
