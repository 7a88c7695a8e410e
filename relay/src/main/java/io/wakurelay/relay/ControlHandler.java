package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlIDontWant;
import io.wakurelay.relay.proto.ControlIHave;
import io.wakurelay.relay.proto.ControlIWant;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A peer's gossipsub control messages (GRAFT, PRUNE, IHAVE, IWANT, IDONTWANT), handled on the router's state under
 * the router's lock: the router reads the RPC and counts it, this class decides what each control message changes
 * and what to answer, into the router's {@link GossipRouter.Outbox}.
 */
final class ControlHandler {
    private final GossipParams params;
    private final ScoreParams scoring;
    private final Map<String, Set<PeerState>> mesh;
    private final SeenCache seen;
    private final Promises promises;
    private final MessageCache cache;

    ControlHandler(RelayConfig config, Map<String, Set<PeerState>> mesh, SeenCache seen, Promises promises,
                   MessageCache cache) {
        this.params = config.gossip();
        this.scoring = config.scoring();
        this.mesh = mesh;
        this.seen = seen;
        this.promises = promises;
        this.cache = cache;
    }

    /** Under the router's lock; {@code score} is the peer's now. */
    void onControl(PeerState peer, ControlMessage control, double score, long now, GossipRouter.Outbox out) {
        for (ControlIDontWant dontWant : control.getIdontwantList()) {
            for (ByteString id : dontWant.getMessageIDsList()) {
                peer.dontWant(new MessageId(id.toByteArray()));
            }
        }
        for (ControlGraft graft : control.getGraftList()) {
            onGraft(peer, graft.getTopicID(), score, now, out);
        }
        for (ControlPrune prune : control.getPruneList()) {
            onPrune(peer, prune, now);
        }
        if (score >= scoring.gossipThreshold()) {
            for (ControlIHave ihave : control.getIhaveList()) {
                onIHave(peer, ihave, now, out);
            }
            for (ControlIWant iwant : control.getIwantList()) {
                onIWant(peer, iwant, out);
            }
        }
    }

    private void onGraft(PeerState peer, String topic, double score, long now, GossipRouter.Outbox out) {
        Set<PeerState> members = mesh.get(topic);
        if (members == null) {
            // not our topic: tell the peer so it does not count on us
            out.controlMessage(peer).addPrune(ControlPrune.newBuilder().setTopicID(topic));
            return;
        }
        if (members.contains(peer)) {
            return;
        }
        if (peer.inBackoff(topic, now)) {
            peer.score.behaviourPenalty(GossipRouter.PENALTY);
            prune(peer, topic, params.pruneBackoff().toNanos(), now, out);
            return;
        }
        if (score < 0 || (members.size() >= params.dHi() && !peer.outbound)) {
            prune(peer, topic, params.pruneBackoff().toNanos(), now, out);
            return;
        }
        members.add(peer);
        peer.score.grafted(topic, now);
    }

    private void onPrune(PeerState peer, ControlPrune prune, long now) {
        String topic = prune.getTopicID();
        Set<PeerState> members = mesh.get(topic);
        if (members != null && members.remove(peer)) {
            peer.score.pruned(topic);
        }
        long backoff = Math.max(params.pruneBackoff().toNanos(), TimeUnit.SECONDS.toNanos(prune.getBackoff()));
        peer.backoff(topic, now + backoff);
    }

    private void onIHave(PeerState peer, ControlIHave ihave, long now, GossipRouter.Outbox out) {
        if (++peer.iHaveMessagesThisHeartbeat > params.maxIHaveMessages() || !mesh.containsKey(ihave.getTopicID())) {
            return;
        }
        List<ByteString> wanted = new ArrayList<>();
        for (ByteString raw : ihave.getMessageIDsList()) {
            if (peer.iHaveIdsRequestedThisHeartbeat >= params.maxIHaveLength()) {
                break;
            }
            MessageId id = new MessageId(raw.toByteArray());
            if (!seen.contains(id, now) && !promises.isPromised(id)) {
                wanted.add(raw);
                peer.iHaveIdsRequestedThisHeartbeat++;
            }
        }
        if (wanted.isEmpty()) {
            return;
        }
        // one id at random is the advertiser's promise: if it never comes, the advertiser is penalised
        ByteString promised = wanted.get(ThreadLocalRandom.current().nextInt(wanted.size()));
        promises.promise(new MessageId(promised.toByteArray()), peer, now + params.iwantFollowupTime().toNanos());
        out.controlMessage(peer).addIwant(ControlIWant.newBuilder().addAllMessageIDs(wanted));
    }

    private void onIWant(PeerState peer, ControlIWant iwant, GossipRouter.Outbox out) {
        for (ByteString raw : iwant.getMessageIDsList()) {
            MessageCache.Entry entry = cache.get(new MessageId(raw.toByteArray()));
            if (entry == null) {
                continue;
            }
            if (entry.requestedBy(peer.id) > params.gossipRetransmission()) {
                // asking again and again for the same message is a flood, not a need
                peer.score.behaviourPenalty(GossipRouter.PENALTY);
                continue;
            }
            out.add(peer, entry.rpc.retainedDuplicate(), PeerSender.Kind.GOSSIP);
        }
    }

    /** Prunes {@code peer} from {@code topic}'s mesh with a backoff, both ways: it may not graft again before it. */
    void prune(PeerState peer, String topic, long backoffNanos, long now, GossipRouter.Outbox out) {
        peer.backoff(topic, now + backoffNanos);
        out.controlMessage(peer).addPrune(ControlPrune.newBuilder().setTopicID(topic)
                .setBackoff(TimeUnit.NANOSECONDS.toSeconds(backoffNanos)));
    }
}
