package io.wakurelay.node;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the node found the peers its peer manager connected to, in nwaku's {@code PeerOrigin} names
 * ({@link io.wakurelay.discovery.peers.Origin#nwakuName()}), for {@code /admin/v1/peers}. Bounded: past
 * {@link #CAPACITY} peers the one noted longest ago is forgotten (it then shows as {@code UnknownOrigin}); far more
 * than {@code --max-connections}.
 * Filled only by this node's own successful dials, never by what a peer sends; {@code waku_peer_origins} is its size.
 */
final class PeerOrigins {
    static final int CAPACITY = 4096;

    private final Map<PeerId, String> origins = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PeerId, String> eldest) {
            return size() > CAPACITY;
        }
    };

    /** {@code peer} was dialled, and connected, because {@code origin} named it. */
    synchronized void found(PeerId peer, String origin) {
        origins.put(peer, origin);
    }

    /** How many peers' origins are noted (at most {@link #CAPACITY}). */
    synchronized int size() {
        return origins.size();
    }

    /** The origin noted for {@code peer}, or null. */
    synchronized String of(PeerId peer) {
        return origins.get(peer);
    }
}
