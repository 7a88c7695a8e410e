package io.wakurelay.node;

import io.wakurelay.p2p.PeerValues;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayPeer;

import io.wakurelay.services.filter.FilterService;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the host is told of the node's peers when it trims inbound connections (ADR 0086): the relay's mesh peers and
 * the filter service's subscribers are kept, as go-libp2p-pubsub protects its mesh peers; other relay peers are worth
 * their gossipsub score. Read from the relay's and the filter's own state when the host asks.
 */
final class NodePeerValues implements PeerValues {
    private final Relay relay;
    private final FilterService filter;

    /** @param relay null on an edge node; @param filter null without the filter service */
    NodePeerValues(Relay relay, FilterService filter) {
        this.relay = relay;
        this.filter = filter;
    }

    @Override
    public Set<PeerId> protectedPeers() {
        Set<PeerId> kept = new HashSet<>();
        if (relay != null) {
            for (List<PeerId> mesh : relay.mesh().values()) {
                kept.addAll(mesh);
            }
        }
        if (filter != null) {
            kept.addAll(filter.subscribedCriteria().keySet());
        }
        return kept;
    }

    @Override
    public Map<PeerId, Integer> values() {
        Map<PeerId, Integer> worth = new HashMap<>();
        if (relay != null) {
            for (RelayPeer p : relay.peers()) {
                worth.put(p.peerId(), (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, p.score())));
            }
        }
        return worth;
    }
}
