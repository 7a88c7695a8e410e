package io.wakurelay.relay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Which peers may join a topic's mesh or fanout: subscribed to it, with an open relay stream, a score high enough
 * and, for the mesh, out of the backoff a PRUNE set; and where this node's own message goes. Works on the
 * {@link RouterState} under the router's lock.
 */
final class MeshCandidates {
    private final GossipParams params;
    private final ScoreParams scoring;
    private final RouterState state;

    MeshCandidates(RelayConfig config, RouterState state) {
        this.params = config.gossip();
        this.scoring = config.scoring();
        this.state = state;
    }

    /**
     * Peers subscribed to {@code topic} with an open relay stream and a score of at least {@code minScore}; with
     * {@code respectBackoff}, not within a backoff or one heartbeat after it (go-libp2p-pubsub's backoff slack: the
     * peer started the same backoff a little later, when the PRUNE reached it, and would take an early GRAFT for one
     * during its backoff, and penalise it).
     */
    List<PeerState> of(String topic, long now, double minScore, boolean respectBackoff) {
        List<PeerState> result = new ArrayList<>();
        long withSlack = now - params.heartbeat().toNanos();
        for (PeerState p : state.subscribers(topic)) {
            if (p.sender.isOpen() && !(respectBackoff && p.inBackoff(topic, withSlack)) && state.score(p, now) >= minScore) {
                result.add(p);
            }
        }
        return result;
    }

    /**
     * Where this node's own message on {@code topic} goes: with flood publish every subscriber above the publish
     * threshold, else the topic's mesh, or its fanout (filled with D candidates when empty). A topic without a mesh
     * keeps its fanout for another fanout TTL.
     */
    Collection<PeerState> forOwnMessage(String topic, long now) {
        if (params.floodPublish()) {
            List<PeerState> all = new ArrayList<>();
            for (PeerState p : state.subscribers(topic)) {
                if (p.sender.isOpen() && state.score(p, now) >= scoring.publishThreshold()) {
                    all.add(p);
                }
            }
            if (!state.hasMesh(topic)) {
                state.published(topic, now);
            }
            return all;
        }
        if (state.hasMesh(topic)) {
            return state.mesh(topic);
        }
        state.published(topic, now);
        Set<PeerState> f = state.fanout(topic);
        if (f.isEmpty()) {
            state.addToFanout(topic, pick(of(topic, now, scoring.publishThreshold(), false), params.d()));
        }
        return state.fanout(topic);
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
