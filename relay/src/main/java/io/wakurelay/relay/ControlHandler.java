package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.relay.proto.ControlIDontWant;
import io.wakurelay.relay.proto.ControlIHave;
import io.wakurelay.relay.proto.ControlIWant;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.wakurelay.relay.ControlIgnored.BACKOFF;
import static io.wakurelay.relay.ControlIgnored.HEARTBEAT_LIMIT;
import static io.wakurelay.relay.ControlIgnored.LOW_SCORE;
import static io.wakurelay.relay.ControlIgnored.RETRANSMISSION;
import static io.wakurelay.relay.ControlIgnored.RPC_LIMIT;
import static io.wakurelay.relay.ControlIgnored.TOO_MANY_IDS;
import static io.wakurelay.relay.ControlIgnored.UNKNOWN_TOPIC;
import static io.wakurelay.relay.ControlKind.GRAFT;
import static io.wakurelay.relay.ControlKind.IDONTWANT;
import static io.wakurelay.relay.ControlKind.IHAVE;
import static io.wakurelay.relay.ControlKind.IWANT;
import static io.wakurelay.relay.ControlKind.PRUNE;

/**
 * A peer's gossipsub control messages (GRAFT, PRUNE, IHAVE, IWANT, IDONTWANT), handled on the {@link RouterState}
 * under the router's lock: the router reads the RPC and counts it, this class decides what each control message
 * changes and what to answer, into the router's {@link Outbox}.
 *
 * <p>Nothing a peer sends grows state without a bound, and a flood costs its sender: GRAFTs and PRUNEs for topics
 * this node has no mesh for are ignored without an answer or a backoff entry (go-libp2p-pubsub's "spam hardening"),
 * a PRUNE's backoff is cut to {@code maxPruneBackoff}, and each kind has its bound per RPC and per heartbeat
 * ({@link ControlBudget}). Past a bound no honest peer reaches (too much control in one RPC; too many GRAFTs and
 * PRUNEs in a heartbeat) the sender is penalised (P₇); past those an honest peer may brush (IHAVE, IWANT and
 * IDONTWANT floods) what is past is only ignored, as go ignores it. Each is counted by {@link ControlIgnored}.
 */
final class ControlHandler {
    private final GossipParams params;
    private final ScoreParams scoring;
    private final PeerLimits limits;
    private final RouterEvents events;
    private final RouterState state;
    private final SeenCache seen;
    private final MessageCache cache;

    ControlHandler(RelayConfig config, RouterEvents events, RouterState state, SeenCache seen, MessageCache cache) {
        this.params = config.gossip();
        this.scoring = config.scoring();
        this.limits = config.peerLimits();
        this.events = events;
        this.state = state;
        this.seen = seen;
        this.cache = cache;
    }

    /**
     * Under the router's lock, for the first copy of a message of {@code messageBytes}: past the size threshold, an
     * IDONTWANT for it goes to every mesh peer of {@code topic} but its sender, so that a peer about to forward the
     * same message to us does not (gossipsub v1.2). Before validation, as nim-libp2p and go-libp2p-pubsub send it:
     * an invalid message costs one small control message per mesh peer, and its sender pays in score anyway.
     *
     * @return what to send once the lock is released ({@link Outbox#NONE} when there is nothing to announce)
     */
    Outbox announceDontWant(String topic, PeerState from, MessageId id, int messageBytes) {
        if (messageBytes <= params.iDontWantMinBytes()) {
            return Outbox.NONE;
        }
        Outbox out = Outbox.NONE;
        ControlIDontWant dontWant = null;
        for (PeerState p : state.mesh(topic)) {
            if (p != from) {
                if (out == Outbox.NONE) {
                    out = new Outbox();
                    dontWant = ControlIDontWant.newBuilder().addMessageIDs(ByteString.copyFrom(id.bytes())).build();
                }
                out.controlMessage(p).addIdontwant(dontWant);
            }
        }
        return out;
    }

    /** Under the router's lock; {@code score} is the peer's now. */
    void onControl(PeerState peer, RpcReader.Rpc rpc, double score, long now, Outbox out) {
        if (rpc.controlOverLimit()) {
            // more than any honest peer puts in one RPC (it has at most our topics to graft, prune or gossip)
            peer.score.penalise();
            for (ControlKind kind : ControlKind.values()) {
                events.controlIgnored(kind, RPC_LIMIT, rpc.controlCounts().of(kind));
            }
            return;
        }
        ControlMessage control = rpc.control();
        onIDontWants(peer, control.getIdontwantList());
        onGraftsAndPrunes(peer, control, score, now, out);
        onIHaves(peer, control.getIhaveList(), score, now, out);
        onIWants(peer, control.getIwantList(), score, out);
    }

    private void onGraftsAndPrunes(PeerState peer, ControlMessage control, double score, long now,
                                   Outbox out) {
        int grafts = control.getGraftCount();
        int prunes = control.getPruneCount();
        if (grafts + prunes == 0) {
            return;
        }
        int taken = peer.budget.takeGraftsAndPrunes(grafts + prunes);
        int graftsTaken = Math.min(grafts, taken);
        int prunesTaken = taken - graftsTaken;
        if (taken < grafts + prunes) {
            // an honest peer grafts or prunes each topic it shares with us once or twice a heartbeat at most
            peer.score.penalise();
            events.controlIgnored(GRAFT, HEARTBEAT_LIMIT, grafts - graftsTaken);
            events.controlIgnored(PRUNE, HEARTBEAT_LIMIT, prunes - prunesTaken);
        }
        for (int i = 0; i < graftsTaken; i++) {
            onGraft(peer, control.getGraft(i).getTopicID(), score, now, out);
        }
        for (int i = 0; i < prunesTaken; i++) {
            onPrune(peer, control.getPrune(i), now);
        }
    }

    private void onGraft(PeerState peer, String topic, double score, long now, Outbox out) {
        if (!state.hasMesh(topic)) {
            // no answer and no state for a topic we do not relay: the peer may have missed that we just left it, and
            // a PRUNE each would let a peer that does not read make us queue without end
            events.controlIgnored(GRAFT, UNKNOWN_TOPIC, 1);
            return;
        }
        Set<PeerState> members = state.mesh(topic);
        if (members.contains(peer)) {
            return;
        }
        if (peer.inBackoff(topic, now)) {
            peer.score.penalise();
            events.controlIgnored(GRAFT, BACKOFF, 1);
            prune(peer, topic, params.pruneBackoff().toNanos(), now, out);
            return;
        }
        if (score < 0 || (members.size() >= params.dHi() && !peer.outbound)) {
            prune(peer, topic, params.pruneBackoff().toNanos(), now, out);
            return;
        }
        state.graft(topic, peer, now);
    }

    private void onPrune(PeerState peer, ControlPrune prune, long now) {
        String topic = prune.getTopicID();
        if (!state.hasMesh(topic)) {
            // a backoff entry per topic named would let a peer fill our memory with names
            events.controlIgnored(PRUNE, UNKNOWN_TOPIC, 1);
            return;
        }
        state.prune(topic, peer);
        peer.backoff(topic, now + backoffNanos(prune.getBackoff()));
    }

    /**
     * The backoff a PRUNE asks for (uint64 seconds), as go-libp2p-pubsub takes it: as asked, our prune backoff when it
     * asks none (0), at most {@code maxPruneBackoff}. (Before, never less than our prune backoff of a minute: a peer
     * that left a topic with nwaku's 5 s unsubscribe backoff and joined again was kept out of the mesh for a minute,
     * while the peer, its backoff over, grafted this node and paid a GRAFT-during-backoff penalty each time.)
     */
    private long backoffNanos(long seconds) {
        long max = limits.maxPruneBackoff().toSeconds();
        // a uint64 above 2^63 reads as a negative long
        long asked = seconds < 0 || seconds > max ? max : seconds;
        return asked == 0 ? params.pruneBackoff().toNanos() : TimeUnit.SECONDS.toNanos(asked);
    }

    /** All the IHAVEs of one RPC, as go-libp2p-pubsub takes them: one IWANT in answer, with one promise. */
    private void onIHaves(PeerState peer, List<ControlIHave> ihaves, double score, long now, Outbox out) {
        if (ihaves.isEmpty()) {
            return;
        }
        if (score < scoring.gossipThreshold()) {
            events.controlIgnored(IHAVE, LOW_SCORE, ihaves.size());
            return;
        }
        if (!peer.budget.takeIHaveRpc()) {
            events.controlIgnored(IHAVE, HEARTBEAT_LIMIT, ihaves.size());
            return;
        }
        List<ByteString> wanted = new ArrayList<>();
        Set<MessageId> asked = new HashSet<>();
        entries:
        for (int i = 0; i < ihaves.size(); i++) {
            ControlIHave ihave = ihaves.get(i);
            if (!state.hasMesh(ihave.getTopicID())) {
                events.controlIgnored(IHAVE, UNKNOWN_TOPIC, 1);
                continue;
            }
            List<ByteString> ids = ihave.getMessageIDsList();
            if (ids.size() > params.maxIHaveLength()) {
                events.controlIgnored(IHAVE, TOO_MANY_IDS, 1);
                ids = ids.subList(0, params.maxIHaveLength());
            }
            for (ByteString raw : ids) {
                if (raw.size() != MessageId.BYTES) {
                    continue; // no message this node accepts has such an id
                }
                MessageId id = new MessageId(raw.toByteArray());
                if (seen.contains(id, now) || state.promises.isPromised(id) || asked.contains(id)) {
                    continue;
                }
                if (!peer.budget.takeIHaveAsk()) {
                    events.controlIgnored(IHAVE, HEARTBEAT_LIMIT, ihaves.size() - i);
                    break entries;
                }
                asked.add(id);
                wanted.add(raw);
            }
        }
        if (wanted.isEmpty()) {
            return;
        }
        // one id at random is the advertiser's promise: if it never comes, the advertiser is penalised
        ByteString promised = wanted.get(ThreadLocalRandom.current().nextInt(wanted.size()));
        state.promises.promise(new MessageId(promised.toByteArray()), peer, now + params.iwantFollowupTime().toNanos());
        out.controlMessage(peer).addIwant(ControlIWant.newBuilder().addAllMessageIDs(wanted));
    }

    private void onIWants(PeerState peer, List<ControlIWant> iwants, double score, Outbox out) {
        if (iwants.isEmpty()) {
            return;
        }
        if (score < scoring.gossipThreshold()) {
            events.controlIgnored(IWANT, LOW_SCORE, iwants.size());
            return;
        }
        for (int i = 0; i < iwants.size(); i++) {
            if (!onIWant(peer, iwants.get(i), out)) {
                events.controlIgnored(IWANT, HEARTBEAT_LIMIT, iwants.size() - i);
                return;
            }
        }
    }

    /** Answers one IWANT from the message cache; false when the peer's IWANT budget ran out on the way. */
    private boolean onIWant(PeerState peer, ControlIWant iwant, Outbox out) {
        boolean retransmission = false;
        boolean withinBudget = true;
        for (ByteString raw : iwant.getMessageIDsList()) {
            if (!peer.budget.takeIWantId()) {
                withinBudget = false;
                break;
            }
            if (raw.size() != MessageId.BYTES || peer.dontWant.contains(MessageId.prefix(raw))) {
                continue;
            }
            MessageCache.Entry entry = cache.get(new MessageId(raw.toByteArray()));
            if (entry == null) {
                continue;
            }
            if (entry.requestedBy(peer.id) > params.gossipRetransmission()) {
                // asking again and again for the same message is a flood, not a need
                peer.score.penalise();
                retransmission = true;
                continue;
            }
            out.add(peer, entry.rpc.retainedDuplicate(), PeerSender.Kind.GOSSIP);
        }
        events.controlIgnored(IWANT, RETRANSMISSION, retransmission ? 1 : 0);
        return withinBudget;
    }

    /** go-libp2p-pubsub's two IDONTWANT bounds: RPCs per heartbeat, and ids per RPC; past them, ignored. */
    private void onIDontWants(PeerState peer, List<ControlIDontWant> dontWants) {
        if (dontWants.isEmpty()) {
            return;
        }
        if (!peer.budget.takeIDontWantRpc()) {
            events.controlIgnored(IDONTWANT, HEARTBEAT_LIMIT, dontWants.size());
            return;
        }
        int left = limits.maxIDontWantLength();
        for (ControlIDontWant dontWant : dontWants) {
            List<ByteString> ids = dontWant.getMessageIDsList();
            int taken = Math.min(ids.size(), left);
            for (int i = 0; i < taken; i++) {
                peer.dontWant.add(MessageId.prefix(ids.get(i)));
            }
            left -= taken;
            events.controlIgnored(IDONTWANT, TOO_MANY_IDS, taken < ids.size() ? 1 : 0);
        }
    }

    /** Prunes {@code peer} from {@code topic}'s mesh with a backoff, both ways: it may not graft again before it. */
    void prune(PeerState peer, String topic, long backoffNanos, long now, Outbox out) {
        peer.backoff(topic, now + backoffNanos);
        out.controlMessage(peer).addPrune(ControlPrune.newBuilder().setTopicID(topic)
                .setBackoff(TimeUnit.NANOSECONDS.toSeconds(backoffNanos)));
    }
}
