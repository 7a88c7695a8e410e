package io.wakurelay.relay;

import com.google.protobuf.ByteString;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlIHave;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gossipsub heartbeat: broken IWANT promises penalised, each topic's mesh kept between Dlo and Dhi (negative
 * scores pruned, the best Dscore and Dout outbound peers kept, the rest chosen at random), fanout expired and
 * refilled, IHAVE gossip to Dlazy peers outside the mesh, the message cache shifted, graylisted peers disconnected
 * and scores decayed. It works on the {@link RouterState}, under the router's lock, and puts what to write into the
 * router's {@link Outbox}.
 */
final class Heartbeat {
    private final GossipParams params;
    private final ScoreParams scoring;
    private final RouterEvents events;
    private final RouterState state;
    private final MessageCache cache;
    private final ControlHandler control;
    private final MeshCandidates candidates;
    private long lastDecayNanos;

    Heartbeat(RelayConfig config, RouterEvents events, RouterState state, MessageCache cache, ControlHandler control,
              MeshCandidates candidates, long now) {
        this.params = config.gossip();
        this.scoring = config.scoring();
        this.events = events;
        this.state = state;
        this.cache = cache;
        this.control = control;
        this.candidates = candidates;
        this.lastDecayNanos = now;
    }

    /** One heartbeat, under the router's lock: what to write goes into {@code out}. */
    void run(long now, Outbox out) {
        state.retainedScores.expire(now);
        brokenPromises(now);
        Map<PeerState, Double> scores = new HashMap<>();
        for (PeerState p : state.peers()) {
            scores.put(p, state.score(p, now));
        }
        for (String topic : state.meshTopics()) {
            maintainMesh(topic, scores, now, out);
        }
        maintainFanout(scores, now);
        emitGossip(scores, now, out);
        cache.shift();
        for (PeerState p : state.peers()) {
            p.heartbeat(now - params.heartbeat().toNanos()); // backoffs are kept a heartbeat longer: MeshCandidates' slack
            if (scores.get(p) < scoring.graylistThreshold()) {
                out.disconnect(p, "graylisted");
            }
        }
        recordScores(scores);
        // decay after the scores were used, not before: a peer that fell below the graylist threshold since the
        // last heartbeat is disconnected by this one even when a decay is due, instead of fading back above it
        if (now - lastDecayNanos >= scoring.decayInterval().toNanos()) {
            lastDecayNanos = now;
            state.peers().forEach(PeerState::decay);
            state.retainedScores.decay();
        }
    }

    private void brokenPromises(long now) {
        for (PeerState advertiser : state.promises.broken(now)) {
            advertiser.score.penalise();
        }
    }

    private void maintainMesh(String topic, Map<PeerState, Double> scores, long now, Outbox out) {
        long backoff = params.pruneBackoff().toNanos();
        Set<PeerState> members = state.mesh(topic); // a view: it follows the grafts and prunes below
        for (PeerState p : new ArrayList<>(members)) {
            if (scores.getOrDefault(p, 0.0) < 0) {
                state.prune(topic, p);
                control.prune(p, topic, backoff, now, out);
            }
        }
        if (members.size() < params.dLo()) {
            List<PeerState> more = candidates.of(topic, now, 0, true);
            more.removeAll(members);
            graft(topic, MeshCandidates.pick(more, params.d() - members.size()), now, out);
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
                state.prune(topic, p);
                control.prune(p, topic, backoff, now, out);
            }
        }
        long outbound = members.stream().filter(p -> p.outbound).count();
        if (members.size() >= params.dLo() && outbound < params.dOut()) {
            List<PeerState> outboundCandidates = candidates.of(topic, now, 0, true);
            outboundCandidates.removeIf(p -> !p.outbound || members.contains(p));
            graft(topic, MeshCandidates.pick(outboundCandidates, (int) (params.dOut() - outbound)), now, out);
        }
    }

    private void graft(String topic, List<PeerState> chosen, long now, Outbox out) {
        for (PeerState p : chosen) {
            state.graft(topic, p, now);
            out.controlMessage(p).addGraft(ControlGraft.newBuilder().setTopicID(topic));
        }
    }

    private void maintainFanout(Map<PeerState, Double> scores, long now) {
        state.expireFanout(now, params.fanoutTtl().toNanos());
        for (String topic : state.fanoutTopics()) {
            Set<PeerState> f = state.fanout(topic);
            for (PeerState p : new ArrayList<>(f)) {
                if (!p.topics.contains(topic) || scores.getOrDefault(p, 0.0) < scoring.publishThreshold()) {
                    state.removeFromFanout(topic, p);
                }
            }
            if (f.size() < params.d()) {
                List<PeerState> more = candidates.of(topic, now, scoring.publishThreshold(), false);
                more.removeAll(f);
                state.addToFanout(topic, MeshCandidates.pick(more, params.d() - f.size()));
            }
        }
    }

    private void emitGossip(Map<PeerState, Double> scores, long now, Outbox out) {
        Set<String> topics = new LinkedHashSet<>(state.meshTopics());
        topics.addAll(state.fanoutTopics());
        for (String topic : topics) {
            List<MessageId> ids = cache.gossipIds(topic);
            if (ids.isEmpty()) {
                continue;
            }
            Set<PeerState> exclude = new HashSet<>(state.mesh(topic));
            exclude.addAll(state.fanout(topic));
            List<PeerState> eligible = new ArrayList<>();
            for (PeerState p : state.subscribers(topic)) {
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
            for (PeerState p : MeshCandidates.pick(eligible, count)) {
                out.controlMessage(p).addIhave(ControlIHave.newBuilder().setTopicID(topic).addAllMessageIDs(advertised));
            }
        }
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
        events.peersByScore(bands);
    }
}
