package io.wakurelay.relay;

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
 * the GRAFTs of new meshes and the PRUNEs of left ones together). Works on the {@link RouterState} under the router's
 * lock; {@link #topics()} and {@link #events} are read without it on the receive path.
 */
final class OwnSubscriptions {
    private final GossipParams params;
    private final RouterEvents events;
    private final RouterState state;
    private final MeshCandidates candidates;
    private final Set<String> pendingSubscriptions = new LinkedHashSet<>();
    private final Set<String> pendingUnsubscriptions = new LinkedHashSet<>();
    private final Map<PeerState, Set<String>> pendingPrunes = new LinkedHashMap<>();
    /** Subscribed topics, readable without the lock on the hot path. */
    private volatile Set<String> subscribed = Set.of();
    /** What happens on each subscribed topic is told here, by topic: one look-up per message, without the lock. */
    private volatile Map<String, TopicEvents> topicEvents = Map.of();

    OwnSubscriptions(RelayConfig config, RouterEvents events, RouterState state, MeshCandidates candidates) {
        this.params = config.gossip();
        this.events = events;
        this.state = state;
        this.candidates = candidates;
    }

    Set<String> topics() {
        return subscribed;
    }

    /** Where to tell what happens on {@code topic} when this node relays it, else null. */
    TopicEvents events(String topic) {
        return topicEvents.get(topic);
    }

    /** Joins topics: the mesh is filled at once (from the fanout first); peers hear of it from {@link #changes()}. */
    void join(Collection<String> topics, long now) {
        Set<String> next = new LinkedHashSet<>(subscribed);
        Map<String, TopicEvents> nextEvents = new HashMap<>(topicEvents);
        for (String topic : topics) {
            if (!next.add(topic)) {
                continue;
            }
            nextEvents.put(topic, events.joined(topic));
            Set<PeerState> members = new LinkedHashSet<>();
            for (PeerState p : state.takeFanout(topic)) {
                if (state.score(p, now) >= 0) {
                    members.add(p);
                }
            }
            if (members.size() < params.d()) {
                List<PeerState> more = candidates.of(topic, now, 0, true);
                more.removeAll(members);
                members.addAll(MeshCandidates.pick(more, params.d() - members.size()));
            }
            state.openMesh(topic, members, now);
            pendingUnsubscriptions.remove(topic);
            pendingSubscriptions.add(topic);
        }
        subscribed = Collections.unmodifiableSet(next);
        topicEvents = Map.copyOf(nextEvents);
    }

    /**
     * Leaves topics: mesh peers are pruned with the unsubscribe backoff, kept here too (as go-libp2p-pubsub's
     * {@code Leave}), so that a quick join again does not graft them before the backoff they were told is over (they
     * would take it for a GRAFT during backoff, and penalise this node); peers hear of it from {@link #changes()}.
     */
    void leave(Collection<String> topics, long now) {
        Set<String> next = new LinkedHashSet<>(subscribed);
        Map<String, TopicEvents> nextEvents = new HashMap<>(topicEvents);
        for (String topic : topics) {
            if (!next.remove(topic)) {
                continue;
            }
            nextEvents.remove(topic).close();
            for (PeerState p : state.closeMesh(topic)) {
                pendingPrunes.computeIfAbsent(p, x -> new LinkedHashSet<>()).add(topic);
                p.backoff(topic, now + params.unsubscribeBackoff().toNanos());
            }
            pendingSubscriptions.remove(topic);
            pendingUnsubscriptions.add(topic);
        }
        subscribed = Collections.unmodifiableSet(next);
        topicEvents = Map.copyOf(nextEvents);
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
        for (PeerState p : state.peers()) {
            RPC.Builder rpc = null;
            for (String topic : pendingSubscriptions) {
                rpc = rpc != null ? rpc : out.control(p);
                rpc.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(topic));
                if (state.mesh(topic).contains(p)) {
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
            if (state.peer(prunes.getKey().id) == null) {
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
