package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;
import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.proto.RPC;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The gossipsub v1.1 router of Waku relay: subscriptions, a mesh per topic, fanout, the seen and message caches,
 * gossip (IHAVE/IWANT), IDONTWANT, and peer scoring. One lock guards its state; the expensive work of a message
 * (SHA-256 for its id, the decode, the RFC 14 hash, encryption per peer) happens outside it, and so do all writes:
 * methods collect what to send in an {@link Outbox} and send it after releasing the lock.
 *
 * <p>The receive path of one message, on the event loop of the connection it came on: message id (one SHA-256),
 * seen-cache check, decode and validation (one decode, one RFC 14 hash), then the exact received bytes go to the
 * mesh peers (not the sender, not those that said IDONTWANT) and the envelope to the local consumer.
 */
final class GossipRouter {
    private static final Logger log = LoggerFactory.getLogger(GossipRouter.class);
    /** Behaviour penalty for each protocol misstep (P₇). */
    static final double PENALTY = 1.0;

    private final RelayConfig config;
    private final GossipParams params;
    private final ScoreParams scoring;
    private final EnvelopeDecoder decoder;
    private final PathCounters counters;
    private final RelayMetrics metrics;
    private final RouterEvents events;
    private final HandOver handOver;
    private final ByteBufAllocator alloc;
    private final LongSupplier nanoTime;
    private final LongSupplier wallClockNanos;
    private final MessageIds ids; // takes this lock for its fingerprints and the cache

    // ---- state, guarded by this
    private final Map<PeerId, PeerState> peers = new HashMap<>();
    private final Map<String, Set<PeerState>> subscribers = new HashMap<>();
    private final Map<String, Set<PeerState>> mesh = new LinkedHashMap<>();
    private final Map<String, Set<PeerState>> fanout = new HashMap<>();
    private final Map<String, Long> fanoutLastPublished = new HashMap<>();
    private final Map<InetAddress, Integer> peersPerAddress = new HashMap<>();
    private final RetainedScores retainedScores;
    private final Promises promises = new Promises();
    private final SeenCache seen;
    private final RejectedMessages rejected = new RejectedMessages();
    private final MessageCache cache;
    private final ControlHandler control;
    private final MeshCandidates candidates;
    private final OwnSubscriptions own;
    private final Heartbeat heartbeat;
    private boolean closed; // guarded by this

    GossipRouter(RelayConfig config, EnvelopeDecoder decoder, PathCounters counters, RelayMetrics metrics, RouterEvents events,
                 HandOver handOver, ByteBufAllocator alloc, LongSupplier nanoTime, LongSupplier wallClockNanos) {
        this.config = config;
        this.params = config.gossip();
        this.scoring = config.scoring();
        this.decoder = decoder;
        this.counters = counters;
        this.metrics = metrics;
        this.events = events;
        this.handOver = handOver;
        this.alloc = alloc;
        this.nanoTime = nanoTime;
        this.wallClockNanos = wallClockNanos;
        long now = nanoTime.getAsLong();
        this.seen = new SeenCache(config.seenCacheCapacity(), params.seenTtl(), now);
        this.cache = new MessageCache(params.historyLength(), params.historyGossip(), config.messageCacheBytes());
        this.ids = new MessageIds(counters, events, cache, this);
        this.control = new ControlHandler(config, events, mesh, seen, promises, cache);
        this.candidates = new MeshCandidates(subscribers, this::score);
        this.own = new OwnSubscriptions(config, metrics, peers, mesh, fanout, fanoutLastPublished, candidates, this::score);
        this.retainedScores = new RetainedScores(config.peerLimits().maxRetainedScores(),
                scoring.retainScore().toNanos());
        this.heartbeat = new Heartbeat(config, metrics, new Heartbeat.RouterState(peers, subscribers, mesh, fanout,
                fanoutLastPublished, retainedScores, promises, cache), control, candidates, this::score, now);
        metrics.bind(() -> locked(seen::size), () -> locked(seen::evictedEarly), () -> locked(cache::bytes),
                () -> locked(cache::evictedEarly), handOver::pending,
                () -> locked(() -> (int) peers.values().stream().filter(p -> p.sender.isOpen()).count()),
                () -> locked(() -> peers.values().stream().mapToLong(p -> p.sender.queuedBytes()).sum()),
                () -> subscriptions().size());
        metrics.bindRejectedIds(this::rejectedIds);
        metrics.bindPeerState(() -> stateSizes().dontWantIds(), () -> stateSizes().promises(),
                () -> stateSizes().retainedScores());
    }

    // =====================================================================================================
    // peers

    /**
     * A connected peer that speaks relay (or may: its relay stream opens later). Known on another connection, it is
     * made anew: the host keeps one connection per peer, so this one replaced the other (a simultaneous open).
     */
    synchronized PeerState addPeer(Connection connection, PeerSender sender) {
        PeerState existing = peers.get(connection.remotePeer());
        if (existing != null && existing.connection == connection) {
            return existing;
        } else if (existing != null) {
            removePeer(existing.id);
        }
        PeerScore retained = retainedScores.take(connection.remotePeer());
        PeerScore score = retained != null ? retained : new PeerScore(scoring);
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

    synchronized PeerState peer(PeerId id) {
        return peers.get(id);
    }

    /** {@code connection} closed: its peer leaves, unless known on another connection, open, that replaced it. */
    synchronized void removePeer(Connection connection) {
        PeerState peer = peers.get(connection.remotePeer());
        if (peer != null && (peer.connection == connection || !peer.connection.isOpen())) {
            removePeer(peer.id);
        }
    }

    /** The peer disconnected: it leaves every mesh; its score is remembered for {@code retainScore}. */
    synchronized void removePeer(PeerId id) {
        PeerState peer = peers.remove(id);
        if (peer == null) {
            return;
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
            retainedScores.retain(id, peer.score, nanoTime.getAsLong());
        }
        peer.sender.shutdown();
        updateTopicGauges();
    }

    /** The relay stream this node opened to the peer is up: the peer learns our subscriptions. */
    void relayStreamOpened(PeerState peer) {
        Outbox out = new Outbox();
        synchronized (this) {
            if (!own.topics().isEmpty()) {
                RPC.Builder hello = out.control(peer);
                for (String topic : own.topics()) {
                    hello.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(topic));
                }
            }
        }
        send(out);
    }

    // =====================================================================================================
    // receive

    /**
     * One RPC from a peer (or an inject, {@code from} null), read without copying. {@code rpc} stays the caller's;
     * accepted envelopes and cached messages take their own references to it.
     */
    void onRpc(PeerState sender, ByteBuf rpc, Source source) {
        PeerState from = sender == null ? null : sender.current(); // read on a replaced connection: the peer's now
        if (from != null && isGraylisted(from)) {
            return;
        }
        RpcReader.Rpc parsed;
        try {
            parsed = RpcReader.read(rpc, config.peerLimits().maxControlPerRpc());
        } catch (ProtocolViolation e) {
            events.invalid(Violation.MALFORMED_RPC);
            penalise(from);
            return;
        }
        if (from != null && !parsed.subscriptions().isEmpty()) {
            onSubscriptions(from, parsed.subscriptions());
        }
        if (from != null) {
            from.heard.tryEmitEmpty(); // after its subscriptions are known: a publish now reaches it
        }
        for (RpcReader.Message message : parsed.messages()) {
            onMessage(from, message, rpc, source);
        }
        if (from != null && parsed.controlCounts().total() > 0) {
            onControl(from, parsed);
        }
    }

    private void onMessage(PeerState from, RpcReader.Message m, ByteBuf owner, Source source) {
        events.receivedFromPeer();
        SubscribedTopicMeters meters = own.meters(m.topic());
        if (meters == null) {
            // we may have just left the topic, or the peer's view of our subscriptions is old: not its fault. First,
            // so that scores keep stats only for the topics this node relays, not for any a message names
            events.invalid(Violation.NOT_SUBSCRIBED);
            return;
        }
        if (m.signed()) {
            reject(from, m.topic(), Violation.SIGNED_MESSAGE);
            return;
        }
        if (m.data() == null) {
            reject(from, m.topic(), Violation.MALFORMED_MESSAGE);
            return;
        }
        int messageBytes = m.data().readableBytes();
        meters.received(messageBytes);
        long fingerprint = MessageIds.fingerprint(m.message());
        MessageId id = ids.ofCopy(m, fingerprint);
        Outbox dontWant;
        synchronized (this) {
            if (closed) {
                return; // arrived during shutdown, after the cache was cleared: nothing may keep it
            }
            // whoever delivers it, an advertised message that arrives keeps its advertiser's promise
            promises.kept(id);
            if (!seen.markSeen(id, nanoTime.getAsLong())) {
                Violation firstCopy = rejected.reason(id);
                if (firstCopy != null) {
                    reject(from, m.topic(), firstCopy);
                    return;
                }
                events.duplicate();
                if (from != null) {
                    from.score.meshDuplicateDelivery(m.topic());
                }
                return;
            }
            ids.remember(fingerprint, id);
            dontWant = control.announceDontWant(m.topic(), from, id, messageBytes);
        }
        send(dontWant);
        Envelope envelope;
        try {
            envelope = decoder.decode(m.topic(), m.data(), owner);
        } catch (ProtocolViolation v) {
            if (v.violation().penalised()) {
                synchronized (this) {
                    rejected.add(id, v.violation());
                }
                reject(from, m.topic(), v.violation());
            } else {
                events.invalid(v.violation());
            }
            return;
        }
        events.validated();
        events.accepted(envelope.message().payloadSize());
        meters.accepted(messageBytes, envelope.message().payloadSize());
        long timestamp = envelope.message().timestamp();
        if (timestamp > 0) {
            long delay = wallClockNanos.getAsLong() - timestamp;
            if (delay >= 0) {
                events.propagated(delay);
            }
        }
        ByteBuf rpc = RpcWriter.forward(alloc, m.message());
        meters.sent(messageBytes, relay(id, m.topic(), rpc, from, false));
        handOver.offer(envelope, source);
    }

    /**
     * Caches {@code rpc} for IWANT and writes it to the mesh peers of {@code topic} (all peers of the topic above
     * the publish threshold for our own message with flood publish on), except {@code from} and the peers that
     * said IDONTWANT. Consumes the caller's reference to {@code rpc}.
     *
     * @return how many peers it was written to (a peer whose queue was full is not counted)
     */
    int relay(MessageId id, String topic, ByteBuf rpc, PeerState from, boolean ownMessage) {
        if (rpc.readableBytes() > RelayConfig.MAX_OUTBOUND_RPC_BYTES) {
            // nwaku refuses RPCs over 150 KiB; the message stays delivered locally
            events.forwardSkipped();
            rpc.release();
            return 0;
        }
        List<PeerState> targets = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                rpc.release();
                return 0;
            }
            cache.put(id, topic, rpc.retain());
            if (from != null && !ownMessage) {
                from.score.firstDelivery(topic);
            }
            Collection<PeerState> candidates = ownMessage ? publishPeers(topic) : mesh.getOrDefault(topic, Set.of());
            for (PeerState p : candidates) {
                if (p == from) {
                    continue;
                }
                if (p.dontWant.contains(id.prefix())) {
                    events.dontWantSaved();
                    continue;
                }
                targets.add(p);
            }
        }
        int written = 0;
        for (PeerState p : targets) {
            if (p.sender.send(rpc.retainedDuplicate(), PeerSender.Kind.MESSAGE)) {
                events.relayed();
                written++;
            }
        }
        rpc.release();
        return written;
    }

    /** Where this node's own message goes: flood publish, else the mesh or the fanout of the topic. */
    private Collection<PeerState> publishPeers(String topic) {
        long now = nanoTime.getAsLong();
        if (params.floodPublish()) {
            List<PeerState> all = new ArrayList<>();
            for (PeerState p : subscribers.getOrDefault(topic, Set.of())) {
                if (p.sender.isOpen() && score(p, now) >= scoring.publishThreshold()) {
                    all.add(p);
                }
            }
            if (!mesh.containsKey(topic)) {
                fanoutLastPublished.put(topic, now);
            }
            return all;
        }
        Set<PeerState> meshPeers = mesh.get(topic);
        if (meshPeers != null) {
            return meshPeers;
        }
        fanoutLastPublished.put(topic, now);
        Set<PeerState> f = fanout.computeIfAbsent(topic, t -> new HashSet<>());
        if (f.isEmpty()) {
            f.addAll(MeshCandidates.pick(candidates.of(topic, now, scoring.publishThreshold(), false), params.d()));
        }
        return f;
    }

    private void reject(PeerState from, String topic, Violation violation) {
        events.invalid(violation);
        if (from != null) {
            synchronized (this) {
                from.score.invalidDelivery(topic);
            }
        }
    }

    void penalise(PeerState from) {
        if (from != null) {
            synchronized (this) {
                from.score.behaviourPenalty(PENALTY);
            }
        }
    }

    private synchronized int rejectedIds() {
        return rejected.size();
    }

    /** The id of this node's own message, whose WakuMessage bytes are {@code data}. */
    MessageId messageId(ByteBuf data) {
        return ids.sha256(data);
    }

    /** Marks a message of this node's own seen; false when it was seen before (a duplicate publish). */
    synchronized boolean markSeen(MessageId id) {
        return seen.markSeen(id, nanoTime.getAsLong());
    }

    /** The meters of {@code topic} when this node is subscribed to it, else null. */
    SubscribedTopicMeters subscribedTopic(String topic) {
        return own.meters(topic);
    }

    // =====================================================================================================
    // subscriptions

    private void onSubscriptions(PeerState peer, List<RPC.SubOpts> changes) {
        synchronized (this) {
            for (RPC.SubOpts change : changes) {
                String topic = change.getTopicid();
                if (!Topics.isValidPubsubTopic(topic, config.limits().maxTopicBytes())) {
                    continue;
                }
                if (change.getSubscribe()) {
                    if (peer.topics.size() >= config.maxTopics() && !peer.topics.contains(topic)) {
                        peer.score.behaviourPenalty(PENALTY);
                        continue;
                    }
                    if (peer.topics.add(topic)) {
                        subscribers.computeIfAbsent(topic, t -> new LinkedHashSet<>()).add(peer);
                    }
                } else if (peer.topics.remove(topic)) {
                    Set<PeerState> s = subscribers.get(topic);
                    if (s != null) {
                        s.remove(peer);
                        if (s.isEmpty()) {
                            subscribers.remove(topic);
                        }
                    }
                    Set<PeerState> m = mesh.get(topic);
                    if (m != null && m.remove(peer)) {
                        peer.score.pruned(topic);
                    }
                    Set<PeerState> f = fanout.get(topic);
                    if (f != null) {
                        f.remove(peer);
                    }
                }
            }
            updateTopicGauges();
        }
    }

    /** Joins topics (meshes filled at once, from the fanout first); peers hear of it with the next changes sent. */
    synchronized void join(Collection<String> topics) {
        own.join(topics, nanoTime.getAsLong());
        updateTopicGauges();
    }

    /** Leaves topics: mesh peers are pruned with the unsubscribe backoff; peers hear of it with the next changes sent. */
    synchronized void leave(Collection<String> topics) {
        own.leave(topics);
        updateTopicGauges();
    }

    Set<String> subscriptions() {
        return own.topics();
    }

    /**
     * Joins {@code topics} and takes what peers must hear of it (and of any change not yet sent) in one RPC each, in
     * one step, so that no other thread sends this change first and returns before it is out. Send it at once.
     */
    synchronized Outbox joinAndAnnounce(Collection<String> topics) {
        join(topics);
        return own.changes();
    }

    /** As {@link #joinAndAnnounce}, for leaving. */
    synchronized Outbox leaveAndAnnounce(Collection<String> topics) {
        leave(topics);
        return own.changes();
    }

    /** Sends the subscription changes not yet sent (those of the topics joined at start), one RPC per peer. */
    void flushSubscriptionChanges() {
        Outbox out;
        synchronized (this) {
            out = own.changes();
        }
        send(out);
    }

    // =====================================================================================================
    // control

    private void onControl(PeerState peer, RpcReader.Rpc rpc) {
        for (ControlKind kind : ControlKind.values()) {
            events.controlReceived(kind, rpc.controlCounts().of(kind));
        }
        Outbox out = new Outbox();
        synchronized (this) {
            long now = nanoTime.getAsLong();
            control.onControl(peer, rpc, score(peer, now), now, out);
            if (rpc.controlCounts().of(ControlKind.GRAFT) + rpc.controlCounts().of(ControlKind.PRUNE) > 0) {
                updateTopicGauges(); // only GRAFT and PRUNE change a mesh
            }
        }
        send(out);
    }

    // =====================================================================================================
    // heartbeat

    private double score(PeerState p, long now) {
        return p.score.score(now, p.address == null ? 1 : peersPerAddress.getOrDefault(p.address, 1));
    }

    synchronized double score(PeerState p) {
        return score(p, nanoTime.getAsLong());
    }

    private synchronized boolean isGraylisted(PeerState p) {
        return score(p, nanoTime.getAsLong()) < scoring.graylistThreshold();
    }

    /** Mesh maintenance, fanout upkeep, gossip emission, cache shifts, score decay and penalties. */
    void heartbeat() {
        Outbox out = new Outbox();
        synchronized (this) {
            heartbeat.run(nanoTime.getAsLong(), out);
            updateTopicGauges();
        }
        send(out);
        flushSubscriptionChanges();
    }

    private void updateTopicGauges() {
        Set<String> subscribed = own.topics();
        subscribed.forEach(metrics::topic);
        fanout.keySet().forEach(metrics::topic);
        // every topic that has gauges, so that one this node left or stopped publishing to reads 0, not its last value
        metrics.forEachTopic((topic, g) -> {
            boolean joined = subscribed.contains(topic);
            g.mesh().set(joined ? mesh.getOrDefault(topic, Set.of()).size() : 0);
            g.subscribers().set(joined ? subscribers.getOrDefault(topic, Set.of()).size() : 0);
            g.fanout().set(fanout.getOrDefault(topic, Set.of()).size());
        });
    }

    // =====================================================================================================
    // sending

    void send(Outbox out) {
        out.send(alloc, events);
    }

    // =====================================================================================================
    // views

    /** What the router knows of each peer, for the admin API. */
    synchronized List<RelayPeer> peers() {
        long now = nanoTime.getAsLong();
        return RouterViews.peers(peers.values(), mesh, p -> score(p, now));
    }

    synchronized Map<String, List<PeerId>> mesh() {
        return RouterViews.mesh(mesh);
    }

    /** Releases the cached messages; messages that arrive later are neither cached nor delivered. */
    synchronized void close() {
        closed = true;
        cache.clear();
    }

    /** A gauge's reading of state guarded by the lock. */
    private synchronized <T> T locked(Supplier<T> read) {
        return read.get();
    }

    /** What peers can make the router hold, summed over the connected peers: for the gauges and tests of the bounds. */
    synchronized RouterViews.StateSizes stateSizes() {
        return RouterViews.stateSizes(peers.values(), promises.size(), retainedScores.size());
    }
}
