package io.wakurelay.relay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which peers may join a topic's mesh or fanout: subscribed to it, with an open relay stream, a score high enough
 * and, for the mesh, out of the backoff a PRUNE set. Works on the router's state under the router's lock.
 */
final class MeshCandidates {
    /** A peer's score now, as the router computes it (with the IP colocation factor). */
    @FunctionalInterface
    interface Scorer {
        double score(PeerState peer, long now);
    }

    private final Map<String, Set<PeerState>> subscribers;
    private final Scorer scorer;

    MeshCandidates(Map<String, Set<PeerState>> subscribers, Scorer scorer) {
        this.subscribers = subscribers;
        this.scorer = scorer;
    }

    /** Peers subscribed to {@code topic} with an open relay stream and a score of at least {@code minScore}. */
    List<PeerState> of(String topic, long now, double minScore, boolean respectBackoff) {
        List<PeerState> result = new ArrayList<>();
        for (PeerState p : subscribers.getOrDefault(topic, Set.of())) {
            if (p.sender.isOpen() && !(respectBackoff && p.inBackoff(topic, now)) && scorer.score(p, now) >= minScore) {
                result.add(p);
            }
        }
        return result;
    }

    /** Up to {@code n} of {@code from}, chosen at random (the spec's selection for GRAFT, fanout and gossip). */
    static List<PeerState> pick(List<PeerState> from, int n) {
        if (n <= 0 || from.isEmpty()) {
            return List.of();
        }
        List<PeerState> copy = new ArrayList<>(from);
        Collections.shuffle(copy);
        return copy.subList(0, Math.min(n, copy.size()));
    }
}
