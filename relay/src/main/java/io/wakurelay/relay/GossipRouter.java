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

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The gossipsub v1.1 router of Waku relay: subscriptions, a mesh per topic, fanout, the seen and message caches,
 * gossip (IHAVE/IWANT), IDONTWANT, and peer scoring, each in a room of its own on the one {@link RouterState}, whose
 * monitor is the one lock; the expensive work of a message (SHA-256 for its id, the decode, the RFC 14 hash, a
 * validator's proof, encryption per peer) happens outside it, and so do all writes: methods collect what to send in an
 * {@link Outbox} and send it after releasing the lock.
 *
 * <p>The receive path of one message, on the event loop of the connection it came on: message id (one SHA-256),
 * seen-cache check, decode and validation (one decode, one RFC 14 hash), then {@link Verdicts}: an installed
 * validator's screen and verification, and for an accepted message the exact received bytes to the mesh peers (not
 * the sender, not those that said IDONTWANT) and the envelope to the local consumer.
 */
final class GossipRouter {
    private final RelayConfig config;
    private final EnvelopeDecoder decoder;
    private final RouterEvents events;
    private final ByteBufAllocator alloc;
    private final LongSupplier nanoTime;
    /** The topology and its one lock: every field below that is not final is guarded by it, and so are these. */
    private final RouterState state;
    private final MessageIds ids; // takes the lock for its fingerprints and the cache
    private final SeenCache seen;
    private final RejectedMessages rejected = new RejectedMessages();
    private final MessageCache cache;
    private final ControlHandler control;
    private final MeshCandidates candidates;
    private final OwnSubscriptions own;
    private final Heartbeat heartbeat;
    private final Verdicts verdicts;

    /** @param room the validation stage of an installed validator; null: none */
    GossipRouter(RelayConfig config, EnvelopeDecoder decoder, PathCounters counters, RouterEvents events,
                 HandOver handOver, ByteBufAllocator alloc, LongSupplier nanoTime, LongSupplier wallClockNanos,
                 ValidationRoom room) {
        this.config = config;
        this.decoder = decoder;
        this.events = events;
        this.alloc = alloc;
        this.nanoTime = nanoTime;
        long now = nanoTime.getAsLong();
        GossipParams params = config.gossip();
        this.state = new RouterState(config);
        this.seen = new SeenCache(config.seenCacheCapacity(), params.seenTtl(), now);
        this.cache = new MessageCache(params.historyLength(), params.historyGossip(), config.messageCacheBytes());
        this.ids = new MessageIds(counters, events, cache, state);
        this.control = new ControlHandler(config, events, state, seen, cache);
        this.candidates = new MeshCandidates(config, state);
        this.own = new OwnSubscriptions(config, events, state, candidates);
        this.heartbeat = new Heartbeat(config, events, state, cache, control, candidates, now);
        this.verdicts = new Verdicts(config, state, seen, cache, rejected, candidates, handOver, events, alloc, nanoTime,
                wallClockNanos, room);
        RouterViews.tellReadings(events, state, seen, cache, rejected, handOver, own::topics);
    }

    // =====================================================================================================
    // peers

    /**
     * A connected peer that speaks relay (or may: its relay stream opens later). Known on another connection, it is
     * made anew: the host keeps one connection per peer, so this one replaced the other (a simultaneous open).
     */
    PeerState addPeer(Connection connection, PeerSender sender) {
        synchronized (state) {
            PeerState known = state.peer(connection.remotePeer());
            PeerState peer = state.addPeer(connection, sender, nanoTime.getAsLong());
            if (known != null && known != peer) {
                updateTopicGauges(); // the peer on its replaced connection left
            }
            return peer;
        }
    }

    PeerState peer(PeerId id) {
        synchronized (state) {
            return state.peer(id);
        }
    }

    /** {@code connection} closed: its peer leaves, unless known on another connection, open, that replaced it. */
    void removePeer(Connection connection) {
        synchronized (state) {
            PeerState peer = state.peer(connection.remotePeer());
            if (peer != null && (peer.connection == connection || !peer.connection.isOpen())) {
                removePeer(peer.id);
            }
        }
    }

    /** The peer disconnected: it leaves every mesh; its score is remembered for {@code retainScore}. */
    void removePeer(PeerId id) {
        synchronized (state) {
            if (state.removePeer(id, nanoTime.getAsLong())) {
                updateTopicGauges();
            }
        }
    }

    /** The relay stream this node opened to the peer is up: the peer learns our subscriptions. */
    void relayStreamOpened(PeerState peer) {
        Outbox out = new Outbox();
        synchronized (state) {
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
        TopicEvents topicEvents = own.events(m.topic());
        if (topicEvents == null) {
            // we may have just left the topic, or the peer's view of our subscriptions is old: not its fault. First,
            // so that scores keep stats only for the topics this node relays, not for any a message names
            events.invalid(Violation.NOT_SUBSCRIBED);
            return;
        }
        if (m.signed()) {
            verdicts.reject(from, m.topic(), Violation.SIGNED_MESSAGE);
            return;
        }
        if (m.data() == null) {
            verdicts.reject(from, m.topic(), Violation.MALFORMED_MESSAGE);
            return;
        }
        int messageBytes = m.data().readableBytes();
        topicEvents.received(messageBytes);
        long fingerprint = MessageIds.fingerprint(m.message());
        MessageId id = ids.ofCopy(m, fingerprint);
        boolean first;
        Outbox out;
        synchronized (state) {
            if (state.isClosed()) {
                return; // arrived during shutdown, after the cache was cleared: nothing may keep it
            }
            // whoever delivers it, an advertised message that arrives keeps its advertiser's promise
            state.promises.kept(id);
            first = seen.markSeen(id, nanoTime.getAsLong());
            if (first) {
                ids.remember(fingerprint, id);
                verdicts.judging(id, m.topic());
                out = control.announceDontWant(m.topic(), from, id, messageBytes);
            } else {
                out = verdicts.copy(from, m.topic(), id); // rejected again, waits for a verdict, or a duplicate
            }
        }
        send(out);
        if (!first) {
            return;
        }
        try {
            Envelope envelope;
            try {
                envelope = decoder.decode(m.topic(), m.data(), owner);
            } catch (ProtocolViolation v) {
                verdicts.invalid(from, m.topic(), id, v.violation());
                return;
            }
            verdicts.judge(from, m.message(), id, topicEvents, envelope, source, messageBytes);
        } catch (RuntimeException e) {
            verdicts.abandon(id); // a bug on the way: its copies must not wait for a verdict that never comes
            throw e;
        }
    }

    /** Forwards this node's own message ({@link Verdicts#relay}). */
    int relay(MessageId id, String topic, ByteBuf rpc) {
        return verdicts.relay(id, topic, rpc, null, true);
    }

    /** One behaviour penalty for {@code from} (nothing for an inject). */
    void penalise(PeerState from) {
        if (from != null) {
            synchronized (state) {
                from.score.penalise();
            }
        }
    }

    /** The id of this node's own message, whose WakuMessage bytes are {@code data}. */
    MessageId messageId(ByteBuf data) {
        return ids.sha256(data);
    }

    /** Whether a message of this node's own was seen lately (a duplicate publish), without marking it. */
    boolean seenBefore(MessageId id) {
        synchronized (state) {
            return seen.contains(id, nanoTime.getAsLong());
        }
    }

    /** Marks a message of this node's own seen; false when it was seen before (a duplicate publish). */
    boolean markSeen(MessageId id) {
        synchronized (state) {
            return seen.markSeen(id, nanoTime.getAsLong());
        }
    }

    /** Where to tell what happens on {@code topic} when this node is subscribed to it, else null. */
    TopicEvents subscribedTopic(String topic) {
        return own.events(topic);
    }

    // =====================================================================================================
    // subscriptions

    private void onSubscriptions(PeerState peer, List<RPC.SubOpts> changes) {
        synchronized (state) {
            for (RPC.SubOpts change : changes) {
                String topic = change.getTopicid();
                if (!Topics.isValidPubsubTopic(topic, config.limits().maxTopicBytes())) {
                    continue;
                }
                if (change.getSubscribe()) {
                    state.subscribe(peer, topic);
                } else {
                    state.unsubscribe(peer, topic);
                }
            }
            updateTopicGauges();
        }
    }

    /** Joins topics (meshes filled at once, from the fanout first); peers hear of it with the next changes sent. */
    void join(Collection<String> topics) {
        synchronized (state) {
            own.join(topics, nanoTime.getAsLong());
            updateTopicGauges();
        }
    }

    Set<String> subscriptions() {
        return own.topics();
    }

    /**
     * Joins {@code topics} and takes what peers must hear of it (and of any change not yet sent) in one RPC each, in
     * one step, so that no other thread sends this change first and returns before it is out. Send it at once.
     */
    Outbox joinAndAnnounce(Collection<String> topics) {
        synchronized (state) {
            join(topics);
            return own.changes();
        }
    }

    /** As {@link #joinAndAnnounce}, for leaving: mesh peers are pruned with the unsubscribe backoff. */
    Outbox leaveAndAnnounce(Collection<String> topics) {
        synchronized (state) {
            own.leave(topics, nanoTime.getAsLong());
            updateTopicGauges();
            return own.changes();
        }
    }

    /** Sends the subscription changes not yet sent (those of the topics joined at start), one RPC per peer. */
    void flushSubscriptionChanges() {
        Outbox out;
        synchronized (state) {
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
        synchronized (state) {
            long now = nanoTime.getAsLong();
            control.onControl(peer, rpc, state.score(peer, now), now, out);
            if (rpc.controlCounts().of(ControlKind.GRAFT) + rpc.controlCounts().of(ControlKind.PRUNE) > 0) {
                updateTopicGauges(); // only GRAFT and PRUNE change a mesh
            }
        }
        send(out);
    }

    // =====================================================================================================
    // heartbeat

    private boolean isGraylisted(PeerState p) {
        synchronized (state) {
            return state.score(p, nanoTime.getAsLong()) < config.scoring().graylistThreshold();
        }
    }

    /** Mesh maintenance, fanout upkeep, gossip emission, cache shifts, score decay and penalties. */
    void heartbeat() {
        Outbox out = new Outbox();
        synchronized (state) {
            heartbeat.run(nanoTime.getAsLong(), out);
            updateTopicGauges();
        }
        send(out);
        flushSubscriptionChanges();
    }

    /** Under the lock: the peers of each topic, for its gauges. */
    private void updateTopicGauges() {
        events.topicPeers(state.topicPeers(own.topics()));
    }

    // =====================================================================================================
    // sending

    void send(Outbox out) {
        if (out != Outbox.NONE) { // what most copies bring: nothing to write, and nothing to walk through
            out.send(alloc, events);
        }
    }

    // =====================================================================================================
    // views

    /** What the router knows of each peer, for the admin API. */
    List<RelayPeer> peers() {
        synchronized (state) {
            return RouterViews.peers(state, nanoTime.getAsLong());
        }
    }

    Map<String, List<PeerId>> mesh() {
        synchronized (state) {
            return RouterViews.mesh(state);
        }
    }

    /** Releases the cached messages; messages that arrive later are neither cached nor delivered. */
    void close() {
        synchronized (state) {
            state.close();
            cache.clear();
        }
    }

    /** Messages being judged by an installed validator, for the tests of the bound. */
    int judgedNow() {
        return verdicts.judgedNow();
    }

    /** What peers can make the router hold, summed over the connected peers: for the gauges and tests of the bounds. */
    RouterViews.StateSizes stateSizes() {
        synchronized (state) {
            return RouterViews.stateSizes(state);
        }
    }
}
