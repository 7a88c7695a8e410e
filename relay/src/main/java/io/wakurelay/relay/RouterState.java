package io.wakurelay.relay;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The router's topology, with its one owner's mutations: the connected relay peers (and how many share each IP
 * address), who subscribes to which topic, each topic's mesh, the fanout of the topics this node publishes to without
 * relaying them (and when it last did), IHAVE's promises and the scores of the peers that left. The rooms
 * ({@link ControlHandler}, {@link Heartbeat}, {@link OwnSubscriptions}, {@link MeshCandidates}, {@link RouterViews})
 * read and change it through these methods; none holds its maps, so a change that must touch several (a peer leaves
 * every mesh, fanout and subscriber set) is made in one place.
 *
 * <p>Its monitor is the router's one lock (ADR 0051): every method is called with it held, and the sets it returns
 * are read-only views, read under it too.
 */
final class RouterState {
    private final RelayConfig config;
    private final Map<PeerId, PeerState> peers = new HashMap<>();
    private final Map<String, Set<PeerState>> subscribers = new HashMap<>();
    private final Map<String, Set<PeerState>> mesh = new LinkedHashMap<>();
    private final Map<String, Set<PeerState>> fanout = new HashMap<>();
    private final Map<String, Long> fanoutLastPublished = new HashMap<>();
    private final Map<InetAddress, Integer> peersPerAddress = new HashMap<>();
    final RetainedScores retainedScores;
    final Promises promises = new Promises();
    private boolean closed;

    RouterState(RelayConfig config) {
        this.config = config;
        this.retainedScores = new RetainedScores(config.peerLimits().maxRetainedScores(),
                config.scoring().retainScore().toNanos());
    }

    /** The relay shut down: nothing more is cached, forwarded or delivered. */
    void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }

    // =====================================================================================================
    // peers

    /**
     * A connected peer that speaks relay (or may: its relay stream opens later), with the score it left with if it
     * was here lately. Known on another connection, it is made anew with the subscriptions it told there: the host
     * keeps one connection per peer, so this one replaced the other (a simultaneous open).
     */
    PeerState addPeer(Connection connection, PeerSender sender, long now) {
        PeerState existing = peers.get(connection.remotePeer());
        if (existing != null && existing.connection == connection) {
            return existing;
        } else if (existing != null) {
            removePeer(existing.id, now);
        }
        PeerScore retained = retainedScores.take(connection.remotePeer());
        PeerScore score = retained != null ? retained : new PeerScore(config.scoring());
        InetAddress address = PeerState.addressOf(connection);
        PeerState peer = new PeerState(connection.remotePeer(), connection, address, sender, score, config);
        peers.put(peer.id, peer);
        if (existing != null) { // its subscriptions are the peer's, whichever connection told them
            existing.replacedBy = peer;
            existing.topics.forEach(t -> subscribers.computeIfAbsent(t, x -> new LinkedHashSet<>()).add(peer));
            peer.topics.addAll(existing.topics);
        }
        if (address != null) {
            peersPerAddress.merge(address, 1, Integer::sum);
        }
        return peer;
    }

    PeerState peer(PeerId id) {
        return peers.get(id);
    }

    Collection<PeerState> peers() {
        return Collections.unmodifiableCollection(peers.values());
    }

    /**
     * The peer disconnected: it leaves every subscriber set, mesh and fanout, its promises go, and its score is
     * remembered for {@code retainScore} unless it is a newcomer's. False when it was not here.
     */
    boolean removePeer(PeerId id, long now) {
        PeerState peer = peers.remove(id);
        if (peer == null) {
            return false;
        }
        for (String topic : peer.topics) {
            Set<PeerState> s = subscribers.get(topic);
            if (s != null) {
                s.remove(peer);
            }
        }
        for (Map.Entry<String, Set<PeerState>> m : mesh.entrySet()) {
            if (m.getValue().remove(peer)) {
                peer.score.pruned(m.getKey());
            }
        }
        fanout.values().forEach(f -> f.remove(peer));
        peer.heard.tryEmitEmpty(); // nothing more will come: no one waits for it
        if (peer.address != null) {
            peersPerAddress.computeIfPresent(peer.address, (a, n) -> n == 1 ? null : n - 1);
        }
        promises.forget(peer);
        if (!peer.score.isNeutral()) {
            retainedScores.retain(id, peer.score, now);
        }
        peer.sender.shutdown();
        return true;
    }

    /** The peer's score now, with the IP colocation factor of the peers on its address. */
    double score(PeerState p, long now) {
        return p.score.score(now, p.address == null ? 1 : peersPerAddress.getOrDefault(p.address, 1));
    }

    // =====================================================================================================
    // the peers' subscriptions

    /** The peers subscribed to {@code topic}, in the order they subscribed. */
    Set<PeerState> subscribers(String topic) {
        Set<PeerState> s = subscribers.get(topic);
        return s == null ? Set.of() : Collections.unmodifiableSet(s);
    }

    /** {@code peer} subscribed to {@code topic}: false when it has {@code maxTopics} others already (penalised). */
    boolean subscribe(PeerState peer, String topic) {
        if (peer.topics.size() >= config.maxTopics() && !peer.topics.contains(topic)) {
            peer.score.penalise();
            return false;
        }
        if (peer.topics.add(topic)) {
            subscribers.computeIfAbsent(topic, t -> new LinkedHashSet<>()).add(peer);
        }
        return true;
    }

    /** {@code peer} unsubscribed from {@code topic}: it leaves the topic's mesh and fanout too. */
    void unsubscribe(PeerState peer, String topic) {
        if (!peer.topics.remove(topic)) {
            return;
        }
        Set<PeerState> s = subscribers.get(topic);
        if (s != null) {
            s.remove(peer);
            if (s.isEmpty()) {
                subscribers.remove(topic);
            }
        }
        prune(topic, peer);
        Set<PeerState> f = fanout.get(topic);
        if (f != null) {
            f.remove(peer);
        }
    }

    // =====================================================================================================
    // meshes

    /** Whether this node has a mesh for {@code topic} (it relays the topic). */
    boolean hasMesh(String topic) {
        return mesh.containsKey(topic);
    }

    /** The mesh of {@code topic}: empty when there is none. */
    Set<PeerState> mesh(String topic) {
        Set<PeerState> m = mesh.get(topic);
        return m == null ? Set.of() : Collections.unmodifiableSet(m);
    }

    /** The topics with a mesh, in the order they were joined. */
    Set<String> meshTopics() {
        return Collections.unmodifiableSet(mesh.keySet());
    }

    /** The topics with a mesh that {@code peer} is in. */
    List<String> meshTopicsOf(PeerState peer) {
        List<String> topics = new ArrayList<>();
        for (Map.Entry<String, Set<PeerState>> m : mesh.entrySet()) {
            if (m.getValue().contains(peer)) {
                topics.add(m.getKey());
            }
        }
        return topics;
    }

    /** {@code peer} joins the mesh of {@code topic}, which must exist; its time in the mesh starts. */
    void graft(String topic, PeerState peer, long now) {
        mesh.get(topic).add(peer);
        peer.score.grafted(topic, now);
    }

    /** {@code peer} leaves the mesh of {@code topic}; false when it was not in it (or there is no such mesh). */
    boolean prune(String topic, PeerState peer) {
        Set<PeerState> m = mesh.get(topic);
        if (m != null && m.remove(peer)) {
            peer.score.pruned(topic);
            return true;
        }
        return false;
    }

    /**
     * This node joins {@code topic}: its mesh starts with {@code members}, grafted now, and the topic's fanout, if it
     * had one, is gone (its peers were the first candidates).
     */
    void openMesh(String topic, Collection<PeerState> members, long now) {
        mesh.put(topic, new LinkedHashSet<>(members));
        for (PeerState p : members) {
            p.score.grafted(topic, now);
        }
    }

    /** This node leaves {@code topic}: its mesh is gone, its peers pruned; returns them. */
    Set<PeerState> closeMesh(String topic) {
        Set<PeerState> members = mesh.remove(topic);
        if (members == null) {
            return Set.of();
        }
        members.forEach(p -> p.score.pruned(topic));
        return members;
    }

    // =====================================================================================================
    // fanout

    /** The topics this node published to lately without relaying them. */
    Set<String> fanoutTopics() {
        return Collections.unmodifiableSet(fanout.keySet());
    }

    /** The fanout of {@code topic}: empty when there is none. */
    Set<PeerState> fanout(String topic) {
        Set<PeerState> f = fanout.get(topic);
        return f == null ? Set.of() : Collections.unmodifiableSet(f);
    }

    /** Takes {@code topic}'s fanout away (this node joins the topic); empty when there was none. */
    Set<PeerState> takeFanout(String topic) {
        fanoutLastPublished.remove(topic);
        Set<PeerState> f = fanout.remove(topic);
        return f == null ? Set.of() : f;
    }

    /** This node published to {@code topic} now: its fanout (if it has no mesh) lives another fanout TTL. */
    void published(String topic, long now) {
        fanoutLastPublished.put(topic, now);
    }

    /** Adds {@code peers} to {@code topic}'s fanout, made if it had none. */
    void addToFanout(String topic, Collection<PeerState> peers) {
        fanout.computeIfAbsent(topic, t -> new HashSet<>()).addAll(peers);
    }

    /** Removes {@code peer} from {@code topic}'s fanout. */
    void removeFromFanout(String topic, PeerState peer) {
        Set<PeerState> f = fanout.get(topic);
        if (f != null) {
            f.remove(peer);
        }
    }

    /** The fanouts not published to for {@code ttlNanos} go. */
    void expireFanout(long now, long ttlNanos) {
        fanoutLastPublished.entrySet().removeIf(e -> {
            boolean expired = now - e.getValue() >= ttlNanos;
            if (expired) {
                fanout.remove(e.getKey());
            }
            return expired;
        });
    }

    // =====================================================================================================
    // for the gauges

    /** A topic's peers for its gauges. */
    record TopicPeers(int mesh, int fanout, int subscribers) {
    }

    /**
     * The peers of every topic this node relays ({@code relayed}) or keeps a fanout for; the mesh and subscribers of a
     * topic it does not relay count 0.
     */
    Map<String, TopicPeers> topicPeers(Set<String> relayed) {
        Map<String, TopicPeers> result = new HashMap<>();
        Set<String> topics = new LinkedHashSet<>(relayed);
        topics.addAll(fanout.keySet());
        for (String topic : topics) {
            boolean joined = relayed.contains(topic);
            result.put(topic, new TopicPeers(joined ? mesh(topic).size() : 0, fanout(topic).size(),
                    joined ? subscribers(topic).size() : 0));
        }
        return result;
    }
}
