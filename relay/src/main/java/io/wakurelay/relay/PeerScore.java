package io.wakurelay.relay;

import java.util.HashMap;
import java.util.Map;

/**
 * One peer's score (gossipsub v1.1 "The Score Function"): per topic P₁ time in mesh, P₂ first message deliveries,
 * P₃ mesh message delivery deficit, P₄ invalid messages (squared), and globally P₆ IP colocation and P₇ behaviour
 * penalty (squared), weighted by {@link ScoreParams}. Not thread-safe: the router keeps it under its lock.
 *
 * <p>Per-topic stats exist only for the topics this node relays (the router scores nothing else), and only while
 * they count: the stats of a topic the peer is not in the mesh of go once they have decayed to nothing.
 */
final class PeerScore {
    /** One behaviour penalty (P₇). */
    static final double PENALTY = 1.0;

    private final ScoreParams params;
    private final Map<String, TopicStats> topics = new HashMap<>();
    private double behaviourPenalty;

    private static final class TopicStats {
        boolean inMesh;
        long graftedAtNanos;
        double firstDeliveries;
        double meshDeliveries;
        double invalidDeliveries;
    }

    PeerScore(ScoreParams params) {
        this.params = params;
    }

    private TopicStats stats(String topic) {
        return topics.computeIfAbsent(topic, t -> new TopicStats());
    }

    void grafted(String topic, long nowNanos) {
        TopicStats s = stats(topic);
        s.inMesh = true;
        s.graftedAtNanos = nowNanos;
    }

    void pruned(String topic) {
        TopicStats s = topics.get(topic);
        if (s != null) {
            s.inMesh = false;
        }
    }

    /** The peer was first to deliver a valid message on {@code topic}. */
    void firstDelivery(String topic) {
        TopicStats s = stats(topic);
        s.firstDeliveries = Math.min(s.firstDeliveries + 1, params.firstMessageDeliveriesCap());
        if (s.inMesh) {
            s.meshDeliveries = Math.min(s.meshDeliveries + 1, params.meshMessageDeliveriesCap());
        }
    }

    /** The peer, in our mesh, delivered a message we already had, within the delivery window. */
    void meshDuplicateDelivery(String topic) {
        TopicStats s = topics.get(topic);
        if (s != null && s.inMesh) {
            s.meshDeliveries = Math.min(s.meshDeliveries + 1, params.meshMessageDeliveriesCap());
        }
    }

    /** The peer sent a message no honest node would relay. */
    void invalidDelivery(String topic) {
        stats(topic).invalidDeliveries += 1;
    }

    /** {@code amount} behaviour penalties at once. */
    void behaviourPenalty(double amount) {
        behaviourPenalty += amount;
    }

    /**
     * One behaviour penalty (P₇): a GRAFT during backoff, a broken IWANT promise, an IWANT flood, a malformed or
     * oversized RPC, a subscription past {@code maxTopics}, a control flood.
     */
    void penalise() {
        behaviourPenalty += PENALTY;
    }

    /**
     * @param peersOnSameAddress peers connected from this peer's IP address, itself included
     */
    double score(long nowNanos, int peersOnSameAddress) {
        double score = 0;
        double quantum = params.timeInMeshQuantum().toNanos();
        for (TopicStats s : topics.values()) {
            double topic = 0;
            if (s.inMesh) {
                double p1 = Math.min((nowNanos - s.graftedAtNanos) / quantum, params.timeInMeshCap());
                topic += p1 * params.timeInMeshWeight();
                double activation = params.meshMessageDeliveriesActivation().toNanos();
                if (nowNanos - s.graftedAtNanos >= activation && s.meshDeliveries < params.meshMessageDeliveriesThreshold()) {
                    double deficit = params.meshMessageDeliveriesThreshold() - s.meshDeliveries;
                    topic += deficit * deficit * params.meshMessageDeliveriesWeight();
                }
            }
            topic += s.firstDeliveries * params.firstMessageDeliveriesWeight();
            topic += s.invalidDeliveries * s.invalidDeliveries * params.invalidMessageDeliveriesWeight();
            score += topic;
        }
        double surplus = peersOnSameAddress - params.ipColocationFactorThreshold();
        if (surplus > 0) {
            score += surplus * surplus * params.ipColocationFactorWeight();
        }
        score += behaviourPenalty * behaviourPenalty * params.behaviourPenaltyWeight();
        return score;
    }

    /** Every decay interval: counters fade so that a peer can recover from old mistakes. */
    void decay() {
        for (var it = topics.values().iterator(); it.hasNext(); ) {
            TopicStats s = it.next();
            s.firstDeliveries = fade(s.firstDeliveries, params.firstMessageDeliveriesDecay());
            s.meshDeliveries = fade(s.meshDeliveries, params.meshMessageDeliveriesDecay());
            s.invalidDeliveries = fade(s.invalidDeliveries, params.invalidMessageDeliveriesDecay());
            if (!s.inMesh && s.firstDeliveries == 0 && s.meshDeliveries == 0 && s.invalidDeliveries == 0) {
                it.remove(); // nothing left to count: a topic this node left does not stay forever
            }
        }
        behaviourPenalty = fade(behaviourPenalty, params.behaviourPenaltyDecay());
    }

    private double fade(double value, double decay) {
        double next = value * decay;
        return next < params.decayToZero() ? 0 : next;
    }

    /** Topics with stats. */
    int topicCount() {
        return topics.size();
    }

    /** Nothing remembered: the score of a peer that just arrived. */
    boolean isNeutral() {
        return behaviourPenalty == 0 && topics.values().stream().allMatch(s -> s.invalidDeliveries == 0 && !s.inMesh
                && s.firstDeliveries == 0);
    }
}
