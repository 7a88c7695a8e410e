package io.wakurelay.node;

import io.wakurelay.node.peers.CandidateView;
import io.wakurelay.node.status.PeerView;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.Host;
import io.wakurelay.p2p.PeerRecord;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import io.wakurelay.relay.Relay;
import io.wakurelay.relay.RelayPeer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The peers of a node for the admin API: its connections with what identify and the relay know, its static peers,
 * and, as nwaku lists its peer store, the candidates its peer manager keeps that are not connected
 * ({@code connected: false}, with their origin and first address).
 */
final class PeerViews {
    /** nwaku's {@code PeerOrigin} names for a static peer and one nobody found (it dialled us); see PeerOrigins. */
    static final String STATIC = "Static";
    static final String UNKNOWN_ORIGIN = "UnknownOrigin";

    private PeerViews() {
    }

    /**
     * @param relay   null on a node without relay
     * @param origins    how the discoveries found the peers the peer manager connected to
     * @param candidates the peer manager's candidates
     */
    static List<PeerView> of(Host host, Relay relay, PeerOrigins origins, List<CandidateView> candidates) {
        Map<PeerId, RelayPeer> relayPeers = new HashMap<>();
        for (RelayPeer p : relay == null ? List.<RelayPeer>of() : relay.peers()) {
            relayPeers.put(p.peerId(), p);
        }
        List<PeerView> views = new ArrayList<>();
        Set<PeerId> shown = new HashSet<>();
        for (Connection c : host.connections()) {
            PeerRecord record = host.peer(c.remotePeer()).orElse(PeerRecord.unknown(c.remotePeer()));
            RelayPeer r = relayPeers.get(c.remotePeer());
            Multiaddr address = c.isOutbound() || record.listenAddresses().isEmpty()
                    ? c.remoteAddress() : record.listenAddresses().get(0);
            String found = origins.of(c.remotePeer());
            String origin = host.isStaticConnection(c) ? STATIC : found != null ? found : UNKNOWN_ORIGIN;
            views.add(new PeerView(c.remotePeer().toString(), address == null ? null : address.withPeerId(c.remotePeer()).toString(),
                    List.copyOf(new java.util.TreeSet<>(record.protocols())), record.agentVersion(),
                    c.isOutbound() ? "outbound" : "inbound", origin, c.isOpen(), r == null ? null : r.score(),
                    r == null ? List.of() : r.topics(), r == null ? List.of() : r.meshTopics(), c.muxer(),
                    r == null ? 0 : r.queuedBytes(), r == null ? 0 : r.drops()));
            shown.add(c.remotePeer());
        }
        for (Multiaddr statics : host.staticPeers()) {
            PeerId id = statics.peerId().orElseThrow();
            if (shown.add(id)) {
                views.add(new PeerView(id.toString(), statics.toString(), List.of(), "", null, STATIC, false, null,
                        List.of(), List.of(), null, 0, 0));
            }
        }
        for (CandidateView c : candidates) {
            if (shown.add(c.peerId())) {
                views.add(new PeerView(c.peerId().toString(), c.addresses().get(0).withPeerId(c.peerId()).toString(),
                        List.of(), "", null, c.origin().nwakuName(), false, null, List.of(), List.of(), null, 0, 0));
            }
        }
        return views;
    }
}
