package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.wakurelay.p2p.Connection;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.protocol.Envelope;
import io.wakurelay.protocol.EnvelopeDecoder;
import io.wakurelay.protocol.PathCounters;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.protocol.Topics;
import io.wakurelay.protocol.Violation;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlIHave;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;
import io.wakurelay.relay.proto.RPC;
import com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

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
    private final HandOver handOver;
    private final ByteBufAllocator alloc;
    private final LongSupplier nanoTime;
    private final LongSupplier wallClockNanos;
    private final ThreadLocal<MessageDigest> sha256 = ThreadLocal.withInitial(GossipRouter::newSha256);

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
    private boolean closed; // guarded by this
    private final Set<String> pendingSubscriptions = new LinkedHashSet<>();
    private final Set<String> pendingUnsubscriptions = new LinkedHashSet<>();
    private final Map<PeerState, Set<String>> pendingPrunes = new LinkedHashMap<>();
    private long lastDecayNanos;
    /** Subscribed topics, readable without the lock on the hot path. */
    private volatile Set<String> subscribed = Set.of();
    /** The meters of each subscribed topic, by topic: one look-up per message, without the lock. */
    private volatile Map<String, SubscribedTopicMeters> topicMeters = Map.of();

    /** What to write once the lock is released. */
    static final class Outbox {
        private final List<PeerState> peers = new ArrayList<>();
        private final List<ByteBuf> rpcs = new ArrayList<>();
        private final List<PeerSender.Kind> kinds = new ArrayList<>();
        private final Map<PeerState, RPC.Builder> control = new LinkedHashMap<>();
        private final List<PeerState> disconnect = new ArrayList<>();
        private final List<String> disconnectReasons = new ArrayList<>();

        void add(PeerState peer, ByteBuf rpc, PeerSender.Kind kind) {
            peers.add(peer);
            rpcs.add(rpc);
            kinds.add(kind);
        }

        RPC.Builder control(PeerState peer) {
            return control.computeIfAbsent(peer, p -> RPC.newBuilder());
        }

        ControlMessage.Builder controlMessage(PeerState peer) {
            return control(peer).getControlBuilder();
        }

        void disconnect(PeerState peer, String reason) {
            disconnect.add(peer);
            disconnectReasons.add(reason);
        }
    }

    GossipRouter(RelayConfig config, EnvelopeDecoder decoder, PathCounters counters, RelayMetrics metrics,
                 HandOver handOver, ByteBufAllocator alloc, LongSupplier nanoTime, LongSupplier wallClockNanos) {
        this.config = config;
        this.params = config.gossip();
        this.scoring = config.scoring();
        this.decoder = decoder;
        this.counters = counters;
        this.metrics = metrics;
        this.handOver = handOver;
        this.alloc = alloc;
        this.nanoTime = nanoTime;
        this.wallClockNanos = wallClockNanos;
        long now = nanoTime.getAsLong();
        this.seen = new SeenCache(config.seenCacheCapacity(), params.seenTtl(), now);
        this.cache = new MessageCache(params.historyLength(), params.historyGossip(), config.messageCacheBytes());
        this.control = new ControlHandler(config, metrics, mesh, seen, promises, cache);
        this.lastDecayNanos = now;
        this.retainedScores = new RetainedScores(config.peerLimits().maxRetainedScores(),
                scoring.retainScore().toNanos());
        metrics.bind(this::seenSize, this::seenEvictions, this::cacheBytes, this::cacheEvictions, handOver::pending,
                this::relayPeerCount, this::queuedBytes, () -> subscriptions().size());
        metrics.bindRejectedIds(this::rejectedIds);
        metrics.bindPeerState(() -> stateSizes().dontWantIds(), () -> stateSizes().promises(),
                () -> stateSizes().retainedScores());
    }

    // =====================================================================================================
    // peers

    /** A connected peer that speaks relay (or may: its relay stream opens later). */
    synchronized PeerState addPeer(Connection connection, PeerSender sender) {
        PeerState existing = peers.get(connection.remotePeer());
        if (existing != null) {
            return existing;
        }
        PeerScore retained = retainedScores.take(connection.remotePeer());
        PeerScore score = retained != null ? retained : new PeerScore(scoring);
        InetAddress address = addressOf(connection);
        PeerState peer = new PeerState(connection.remotePeer(), connection, address, sender, score, config);
        peers.put(peer.id, peer);
        if (address != null) {
            peersPerAddress.merge(address, 1, Integer::sum);
        }
        return peer;
    }

    synchronized PeerState peer(PeerId id) {
        return peers.get(id);
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
            if (!subscribed.isEmpty()) {
                RPC.Builder hello = out.control(peer);
                for (String topic : subscribed) {
                    hello.addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(topic));
                }
            }
        }
        send(out);
    }

    private static InetAddress addressOf(Connection connection) {
        if (connection.remoteAddress() == null) {
            return null;
        }
        try {
            var socket = connection.remoteAddress().toSocketAddress();
            return socket.isUnresolved() ? null : socket.getAddress();
        } catch (RuntimeException e) {
            return null;
        }
    }

    // =====================================================================================================
    // receive

    /**
     * One RPC from a peer (or an inject, {@code from} null), read without copying. {@code rpc} stays the caller's;
     * accepted envelopes and cached messages take their own references to it.
     */
    void onRpc(PeerState from, ByteBuf rpc, Source source) {
        if (from != null && isGraylisted(from)) {
            return;
        }
        RpcReader.Rpc parsed;
        try {
            parsed = RpcReader.read(rpc, config.peerLimits().maxControlPerRpc());
        } catch (ProtocolViolation e) {
            metrics.invalid(Violation.MALFORMED_RPC);
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
        metrics.receivedFromPeers.increment();
        SubscribedTopicMeters meters = topicMeters.get(m.topic());
        if (meters == null) {
            // we may have just left the topic, or the peer's view of our subscriptions is old: not its fault. First,
            // so that scores keep stats only for the topics this node relays, not for any a message names
            metrics.invalid(Violation.NOT_SUBSCRIBED);
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
        MessageId id = messageId(m.data());
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
                metrics.duplicates.increment();
                if (from != null) {
                    from.score.meshDuplicateDelivery(m.topic());
                }
                return;
            }
        }
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
                metrics.invalid(v.violation());
            }
            return;
        }
        metrics.validationSuccess.increment();
        metrics.accepted(envelope.message().payloadSize());
        meters.accepted(messageBytes, envelope.message().payloadSize());
        long timestamp = envelope.message().timestamp();
        if (timestamp > 0) {
            long delay = wallClockNanos.getAsLong() - timestamp;
            if (delay >= 0) {
                metrics.propagation.record(delay, TimeUnit.NANOSECONDS);
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
            metrics.forwardSkipped.increment();
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
                    metrics.dontWantSaved.increment();
                    continue;
                }
                targets.add(p);
            }
        }
        int written = 0;
        for (PeerState p : targets) {
            if (p.sender.send(rpc.retainedDuplicate(), PeerSender.Kind.MESSAGE)) {
                metrics.relayed.increment();
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
            f.addAll(pick(candidates(topic, now, scoring.publishThreshold(), false), params.d()));
        }
        return f;
    }

    private void reject(PeerState from, String topic, Violation violation) {
        metrics.invalid(violation);
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

    MessageId messageId(ByteBuf data) {
        MessageDigest digest = sha256.get();
        for (java.nio.ByteBuffer part : data.nioBuffers()) {
            digest.update(part);
        }
        counters.messageIdComputed();
        return new MessageId(digest.digest());
    }

    /** Marks a message of this node's own seen; false when it was seen before (a duplicate publish). */
    synchronized boolean markSeen(MessageId id) {
        return seen.markSeen(id, nanoTime.getAsLong());
    }

    /** The meters of {@code topic} when this node is subscribed to it, else null. */
    SubscribedTopicMeters subscribedTopic(String topic) {
        return topicMeters.get(topic);
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

    /** Joins topics: the mesh is filled at once (from the fanout first) and peers hear it in one batch. */
    synchronized void join(Collection<String> topics) {
        Set<String> next = new LinkedHashSet<>(subscribed);
        Map<String, SubscribedTopicMeters> nextMeters = new HashMap<>(topicMeters);
        long now = nanoTime.getAsLong();
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
                    if (score(p, now) >= 0) {
                        members.add(p);
                    }
                }
            }
            if (members.size() < params.d()) {
                List<PeerState> more = candidates(topic, now, 0, true);
                more.removeAll(members);
                members.addAll(pick(more, params.d() - members.size()));
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
        updateTopicGauges();
    }

    /** Leaves topics: mesh peers are pruned with the unsubscribe backoff; peers hear it in one batch. */
    synchronized void leave(Collection<String> topics) {
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
        updateTopicGauges();
    }

    Set<String> subscriptions() {
        return subscribed;
    }

    /**
     * Joins {@code topics} and takes what peers must hear of it (and of any change not yet sent) in one RPC each, in
     * one step, so that no other thread sends this change first and returns before it is out. Send it at once.
     */
    synchronized Outbox joinAndAnnounce(Collection<String> topics) {
        join(topics);
        return subscriptionChanges();
    }

    /** As {@link #joinAndAnnounce}, for leaving. */
    synchronized Outbox leaveAndAnnounce(Collection<String> topics) {
        leave(topics);
        return subscriptionChanges();
    }

    /** Sends the subscription changes not yet sent (those of the topics joined at start), one RPC per peer. */
    void flushSubscriptionChanges() {
        Outbox out;
        synchronized (this) {
            out = subscriptionChanges();
        }
        send(out);
    }

    /**
     * The subscription changes made since the last call, one RPC per peer (subscriptions, the GRAFTs of new meshes and
     * the PRUNEs of left ones together), so that a change of many topics costs each peer one RPC.
     */
    private Outbox subscriptionChanges() {
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

    // =====================================================================================================
    // control

    private void onControl(PeerState peer, RpcReader.Rpc rpc) {
        for (ControlKind kind : ControlKind.values()) {
            metrics.controlReceived(kind, rpc.controlCounts().of(kind));
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

    /** Mesh maintenance, fanout upkeep, gossip emission, cache shifts, score decay and penalties. */
    void heartbeat() {
        Outbox out = new Outbox();
        synchronized (this) {
            long now = nanoTime.getAsLong();
            retainedScores.expire(now);
            brokenPromises(now);
            Map<PeerState, Double> scores = new HashMap<>();
            for (PeerState p : peers.values()) {
                scores.put(p, score(p, now));
            }
            for (Map.Entry<String, Set<PeerState>> topicMesh : mesh.entrySet()) {
                maintainMesh(topicMesh.getKey(), topicMesh.getValue(), scores, now, out);
            }
            maintainFanout(scores, now);
            emitGossip(scores, now, out);
            cache.shift();
            for (PeerState p : peers.values()) {
                p.heartbeat(now);
                if (scores.get(p) < scoring.graylistThreshold()) {
                    out.disconnect(p, "graylisted");
                }
            }
            recordScores(scores);
            updateTopicGauges();
            // decay after the scores were used, not before: a peer that fell below the graylist threshold since the
            // last heartbeat is disconnected by this one even when a decay is due, instead of fading back above it
            if (now - lastDecayNanos >= scoring.decayInterval().toNanos()) {
                lastDecayNanos = now;
                peers.values().forEach(p -> p.score.decay());
                retainedScores.decay();
            }
        }
        send(out);
        flushSubscriptionChanges();
    }

    private void brokenPromises(long now) {
        for (PeerState advertiser : promises.broken(now)) {
            advertiser.score.behaviourPenalty(PENALTY);
        }
    }

    private void maintainMesh(String topic, Set<PeerState> members, Map<PeerState, Double> scores, long now, Outbox out) {
        long backoff = params.pruneBackoff().toNanos();
        for (PeerState p : new ArrayList<>(members)) {
            if (scores.getOrDefault(p, 0.0) < 0) {
                members.remove(p);
                p.score.pruned(topic);
                control.prune(p, topic, backoff, now, out);
            }
        }
        if (members.size() < params.dLo()) {
            List<PeerState> more = candidates(topic, now, 0, true);
            more.removeAll(members);
            graft(topic, pick(more, params.d() - members.size()), members, now, out);
        }
        if (members.size() > params.dHi()) {
            List<PeerState> byScore = new ArrayList<>(members);
            Collections.shuffle(byScore);
            byScore.sort(Comparator.comparingDouble((PeerState p) -> scores.getOrDefault(p, 0.0)).reversed());
            List<PeerState> keep = new ArrayList<>(byScore.subList(0, params.dScore()));
            List<PeerState> rest = new ArrayList<>(byScore.subList(params.dScore(), byScore.size()));
            Collections.shuffle(rest);
            // keep Dout outbound peers among those kept, taking them from the rest if needed
            long outboundKept = keep.stream().filter(p -> p.outbound).count();
            for (var it = rest.iterator(); it.hasNext() && outboundKept < params.dOut(); ) {
                PeerState p = it.next();
                if (p.outbound) {
                    keep.add(p);
                    it.remove();
                    outboundKept++;
                }
            }
            while (keep.size() < params.d() && !rest.isEmpty()) {
                keep.add(rest.remove(0));
            }
            for (PeerState p : rest) {
                members.remove(p);
                p.score.pruned(topic);
                control.prune(p, topic, backoff, now, out);
            }
        }
        long outbound = members.stream().filter(p -> p.outbound).count();
        if (members.size() >= params.dLo() && outbound < params.dOut()) {
            List<PeerState> outboundCandidates = candidates(topic, now, 0, true);
            outboundCandidates.removeIf(p -> !p.outbound || members.contains(p));
            graft(topic, pick(outboundCandidates, (int) (params.dOut() - outbound)), members, now, out);
        }
    }

    private void graft(String topic, List<PeerState> chosen, Set<PeerState> members, long now, Outbox out) {
        for (PeerState p : chosen) {
            members.add(p);
            p.score.grafted(topic, now);
            out.controlMessage(p).addGraft(ControlGraft.newBuilder().setTopicID(topic));
        }
    }

    private void maintainFanout(Map<PeerState, Double> scores, long now) {
        fanoutLastPublished.entrySet().removeIf(e -> {
            boolean expired = now - e.getValue() >= params.fanoutTtl().toNanos();
            if (expired) {
                fanout.remove(e.getKey());
            }
            return expired;
        });
        for (Map.Entry<String, Set<PeerState>> f : fanout.entrySet()) {
            String topic = f.getKey();
            f.getValue().removeIf(p -> !p.topics.contains(topic) || scores.getOrDefault(p, 0.0) < scoring.publishThreshold());
            if (f.getValue().size() < params.d()) {
                List<PeerState> more = candidates(topic, now, scoring.publishThreshold(), false);
                more.removeAll(f.getValue());
                f.getValue().addAll(pick(more, params.d() - f.getValue().size()));
            }
        }
    }

    private void emitGossip(Map<PeerState, Double> scores, long now, Outbox out) {
        Set<String> topics = new LinkedHashSet<>(mesh.keySet());
        topics.addAll(fanout.keySet());
        for (String topic : topics) {
            List<MessageId> ids = cache.gossipIds(topic);
            if (ids.isEmpty()) {
                continue;
            }
            Set<PeerState> exclude = new HashSet<>(mesh.getOrDefault(topic, Set.of()));
            exclude.addAll(fanout.getOrDefault(topic, Set.of()));
            List<PeerState> eligible = new ArrayList<>();
            for (PeerState p : subscribers.getOrDefault(topic, Set.of())) {
                // a peer whose queue is full would get gossip on top of what it does not take
                if (!exclude.contains(p) && p.sender.isOpen() && !p.sender.isFull()
                        && scores.getOrDefault(p, 0.0) >= scoring.gossipThreshold()) {
                    eligible.add(p);
                }
            }
            int count = Math.max(params.dLazy(), (int) (params.gossipFactor() * eligible.size()));
            List<ByteString> advertised = new ArrayList<>();
            for (MessageId id : ids.subList(0, Math.min(ids.size(), params.maxIHaveLength()))) {
                advertised.add(ByteString.copyFrom(id.bytes()));
            }
            for (PeerState p : pick(eligible, count)) {
                out.controlMessage(p).addIhave(ControlIHave.newBuilder().setTopicID(topic).addAllMessageIDs(advertised));
            }
        }
    }

    /** Peers subscribed to {@code topic} with an open relay stream and a score of at least {@code minScore}. */
    private List<PeerState> candidates(String topic, long now, double minScore, boolean respectBackoff) {
        List<PeerState> result = new ArrayList<>();
        for (PeerState p : subscribers.getOrDefault(topic, Set.of())) {
            if (p.sender.isOpen() && !(respectBackoff && p.inBackoff(topic, now)) && score(p, now) >= minScore) {
                result.add(p);
            }
        }
        return result;
    }

    private static List<PeerState> pick(List<PeerState> from, int n) {
        if (n <= 0 || from.isEmpty()) {
            return List.of();
        }
        List<PeerState> copy = new ArrayList<>(from);
        Collections.shuffle(copy);
        return copy.subList(0, Math.min(n, copy.size()));
    }

    private double score(PeerState p, long now) {
        return p.score.score(now, p.address == null ? 1 : peersPerAddress.getOrDefault(p.address, 1));
    }

    synchronized double score(PeerState p) {
        return score(p, nanoTime.getAsLong());
    }

    private synchronized boolean isGraylisted(PeerState p) {
        return score(p, nanoTime.getAsLong()) < scoring.graylistThreshold();
    }

    private void recordScores(Map<PeerState, Double> scores) {
        Map<String, Integer> bands = new HashMap<>();
        for (double s : scores.values()) {
            String band = s < scoring.graylistThreshold() ? "graylisted"
                    : s < scoring.publishThreshold() ? "below_publish"
                    : s < scoring.gossipThreshold() ? "below_gossip"
                    : s < 0 ? "negative" : s == 0 ? "neutral" : "positive";
            bands.merge(band, 1, Integer::sum);
        }
        metrics.scoreBands(bands);
    }

    private void updateTopicGauges() {
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
        for (int i = 0; i < out.rpcs.size(); i++) {
            out.peers.get(i).sender.send(out.rpcs.get(i), out.kinds.get(i));
        }
        for (Map.Entry<PeerState, RPC.Builder> c : out.control.entrySet()) {
            RPC rpc = c.getValue().build();
            c.getKey().sender.send(RpcWriter.control(alloc, rpc), PeerSender.Kind.CONTROL);
        }
        for (int i = 0; i < out.disconnect.size(); i++) {
            PeerState p = out.disconnect.get(i);
            metrics.disconnected(out.disconnectReasons.get(i));
            log.info("disconnecting relay peer {}: {}", p.id, out.disconnectReasons.get(i));
            p.connection.close();
        }
    }

    // =====================================================================================================
    // views

    /** What the router knows of each peer, for the admin API. */
    synchronized List<RelayPeer> peers() {
        long now = nanoTime.getAsLong();
        List<RelayPeer> result = new ArrayList<>();
        for (PeerState p : peers.values()) {
            List<String> meshTopics = new ArrayList<>();
            for (Map.Entry<String, Set<PeerState>> m : mesh.entrySet()) {
                if (m.getValue().contains(p)) {
                    meshTopics.add(m.getKey());
                }
            }
            result.add(new RelayPeer(p.id, p.connection, score(p, now), List.copyOf(p.topics), meshTopics,
                    p.sender.isOpen(), p.sender.queuedBytes(), p.sender.drops()));
        }
        return result;
    }

    synchronized Map<String, List<PeerId>> mesh() {
        Map<String, List<PeerId>> result = new LinkedHashMap<>();
        for (Map.Entry<String, Set<PeerState>> m : mesh.entrySet()) {
            result.put(m.getKey(), m.getValue().stream().map(p -> p.id).toList());
        }
        return result;
    }

    /** Releases the cached messages; messages that arrive later are neither cached nor delivered. */
    synchronized void close() {
        closed = true;
        cache.clear();
    }

    private synchronized int seenSize() {
        return seen.size();
    }

    private synchronized long seenEvictions() {
        return seen.evictedEarly();
    }

    private synchronized long cacheBytes() {
        return cache.bytes();
    }

    private synchronized long cacheEvictions() {
        return cache.evictedEarly();
    }

    private synchronized int relayPeerCount() {
        return (int) peers.values().stream().filter(p -> p.sender.isOpen()).count();
    }

    private synchronized long queuedBytes() {
        return peers.values().stream().mapToLong(p -> p.sender.queuedBytes()).sum();
    }

    /** What peers can make the router hold, summed over the connected peers: for the gauges and tests of the bounds. */
    record StateSizes(int backoffs, int scoredTopics, int dontWantIds, int promises, int retainedScores) {
    }

    synchronized StateSizes stateSizes() {
        return new StateSizes(peers.values().stream().mapToInt(p -> p.backoffUntilNanos.size()).sum(),
                peers.values().stream().mapToInt(p -> p.score.topicCount()).sum(),
                peers.values().stream().mapToInt(p -> p.dontWant.size()).sum(), promises.size(), retainedScores.size());
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
