package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlPrune;
import io.wakurelay.relay.proto.RPC;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The topics this node relays: joining fills a topic's mesh at once (from its fanout first), leaving prunes it with
 * the unsubscribe backoff, and {@link #changes()} gives what peers must hear of both, one RPC per peer (subscriptions,
 * the GRAFTs of new meshes and the PRUNEs of left ones together). Works on the router's state under the router's
 * lock; {@link #topics()} and {@link #meters} are read without it on the receive path.
 */
final class OwnSubscriptions {
    private final RelayConfig config;
    private final GossipParams params;
    private final RelayMetrics metrics;
    private final Map<PeerId, PeerState> peers;
    private final Map<String, Set<PeerState>> mesh;
    private final Map<String, Set<PeerState>> fanout;
    private final Map<String, Long> fanoutLastPublished;
    private final MeshCandidates candidates;
    private final MeshCandidates.Scorer scorer;
    private final Set<String> pendingSubscriptions = new LinkedHashSet<>();
    private final Set<String> pendingUnsubscriptions = new LinkedHashSet<>();
    private final Map<PeerState, Set<String>> pendingPrunes = new LinkedHashMap<>();
    /** Subscribed topics, readable without the lock on the hot path. */
    private volatile Set<String> subscribed = Set.of();
    /** The meters of each subscribed topic, by topic: one look-up per message, without the lock. */
    private volatile Map<String, SubscribedTopicMeters> topicMeters = Map.of();

    OwnSubscriptions(RelayConfig config, RelayMetrics metrics, Map<PeerId, PeerState> peers,
                     Map<String, Set<PeerState>> mesh, Map<String, Set<PeerState>> fanout,
                     Map<String, Long> fanoutLastPublished, MeshCandidates candidates, MeshCandidates.Scorer scorer) {
        this.config = config;
        this.params = config.gossip();
        this.metrics = metrics;
        this.peers = peers;
        this.mesh = mesh;
        this.fanout = fanout;
        this.fanoutLastPublished = fanoutLastPublished;
        this.candidates = candidates;
        this.scorer = scorer;
    }

    Set<String> topics() {
        return subscribed;
    }

    /** The meters of {@code topic} when this node relays it, else null. */
    SubscribedTopicMeters meters(String topic) {
        return topicMeters.get(topic);
    }

    /** Joins topics: the mesh is filled at once (from the fanout first); peers hear of it from {@link #changes()}. */
    void join(Collection<String> topics, long now) {
        Set<String> next = new LinkedHashSet<>(subscribed);
        Map<String, SubscribedTopicMeters> nextMeters = new HashMap<>(topicMeters);
        for (String topic : topics) {
            if (!next.add(topic)) {
                continue;
            }
            nextMeters.put(topic, metrics.joined(topic, config.clusterId()));
            Set<PeerState> members = new LinkedHashSet<>();
            Set<PeerState> f = fanout.remove(topic);
            fanoutLastPublished.remove(topic);
            if (f != null) {
                for (PeerState p : f) {
                    if (scorer.score(p, now) >= 0) {
                        members.add(p);
                    }
                }
            }
            if (members.size() < params.d()) {
                List<PeerState> more = candidates.of(topic, now, 0, true);
                more.removeAll(members);
                members.addAll(MeshCandidates.pick(more, params.d() - members.size()));
            }
            mesh.put(topic, members);
            for (PeerState p : members) {
                p.score.grafted(topic, now);
            }
            pendingUnsubscriptions.remove(topic);
            pendingSubscriptions.add(topic);
        }
        subscribed = Collections.unmodifiableSet(next);
        topicMeters = Map.copyOf(nextMeters);
    }

    /** Leaves topics: mesh peers are pruned with the unsubscribe backoff; peers hear of it from {@link #changes()}. */
    void leave(Collection<String> topics) {
        Set<String> next = new LinkedHashSet<>(subscribed);
        Map<String, SubscribedTopicMeters> nextMeters = new HashMap<>(topicMeters);
        for (String topic : topics) {
            if (!next.remove(topic)) {
                continue;
            }
            nextMeters.remove(topic).close();
            Set<PeerState> members = mesh.remove(topic);
            if (members != null) {
                for (PeerState p : members) {
                    p.score.pruned(topic);
                    pendingPrunes.computeIfAbsent(p, x -> new LinkedHashSet<>()).add(topic);
                }
            }
            pendingSubscriptions.remove(topic);
            pendingUnsubscriptions.add(topic);
        }
        subscribed = Collections.unmodifiableSet(next);
        topicMeters = Map.copyOf(nextMeters);
    }

    /**
     * The subscription changes made since the last call, one RPC per peer (subscriptions, the GRAFTs of new meshes and
     * the PRUNEs of left ones together), so that a change of many topics costs each peer one RPC.
     */
    Outbox changes() {
        Outbox out = new Outbox();
        if (pendingSubscriptions.isEmpty() && pendingUnsubscriptions.isEmpty() && pendingPrunes.isEmpty()) {
            return out;
        }
        for (PeerState p : peers.values()) {
            RPC.Builder rpc = null;
            for (String topic : pendingSubscriptions) {
                rpc = rpc != null ? rpc : out.control(p);
                rpc.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(topic));
                if (mesh.getOrDefault(topic, Set.of()).contains(p)) {
                    out.controlMessage(p).addGraft(ControlGraft.newBuilder().setTopicID(topic));
                }
            }
            for (String topic : pendingUnsubscriptions) {
                rpc = rpc != null ? rpc : out.control(p);
                rpc.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(false).setTopicid(topic));
            }
        }
        long backoffSeconds = params.unsubscribeBackoff().toSeconds();
        for (Map.Entry<PeerState, Set<String>> prunes : pendingPrunes.entrySet()) {
            if (!peers.containsKey(prunes.getKey().id)) {
                continue;
            }
            for (String topic : prunes.getValue()) {
                out.controlMessage(prunes.getKey()).addPrune(ControlPrune.newBuilder().setTopicID(topic)
                        .setBackoff(backoffSeconds));
            }
        }
        pendingSubscriptions.clear();
        pendingUnsubscriptions.clear();
        pendingPrunes.clear();
        return out;
    }
}
