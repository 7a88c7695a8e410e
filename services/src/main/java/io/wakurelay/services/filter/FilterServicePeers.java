package io.wakurelay.services.filter;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The peers the filter client subscribed through: the only ones whose push streams it reads. A peer joins when it
 * agreed to a subscription and leaves when it agreed to end them all; at most {@code capacity} (the one
 * {@code --filternode}, or the few connected filter peers chosen one after another without one), the oldest forgotten
 * first. Thread-safe.
 */
final class FilterServicePeers {
    private final int capacity;
    private final Set<PeerId> peers = new LinkedHashSet<>();

    FilterServicePeers(int capacity) {
        this.capacity = capacity;
    }

    synchronized void subscribedThrough(PeerId peer) {
        peers.remove(peer); // re-added as the newest
        peers.add(peer);
        if (peers.size() > capacity) {
            peers.remove(peers.iterator().next());
        }
    }

    synchronized void unsubscribedAllAt(PeerId peer) {
        peers.remove(peer);
    }

    synchronized boolean contains(PeerId peer) {
        return peers.contains(peer);
    }
}
