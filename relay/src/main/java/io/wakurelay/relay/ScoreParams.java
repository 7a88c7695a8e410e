package io.wakurelay.relay;

import java.time.Duration;

/**
 * Peer scoring (gossipsub v1.1, "Peer Scoring"): thresholds and the weights of each score term, every topic weighted
 * alike. The defaults are nwaku's: first deliveries rewarded (P₂), invalid messages punished hard (P₄, squared),
 * IP colocation above five peers (P₆) and misbehaviour (P₇: GRAFT during backoff, broken IWANT promises, IWANT
 * floods) punished; mesh delivery deficits (P₃, P₃b) off, since they punish honest peers on a quiet topic.
 *
 * @param gossipThreshold   below it a peer gets no gossip and its IHAVE/IWANT are ignored
 * @param publishThreshold  below it a peer gets none of this node's own messages
 * @param graylistThreshold below it everything a peer sends is ignored and it is disconnected
 */
public record ScoreParams(double gossipThreshold, double publishThreshold, double graylistThreshold,
                          Duration decayInterval, double decayToZero, Duration retainScore,
                          double timeInMeshWeight, Duration timeInMeshQuantum, double timeInMeshCap,
                          double firstMessageDeliveriesWeight, double firstMessageDeliveriesDecay,
                          double firstMessageDeliveriesCap,
                          double meshMessageDeliveriesWeight, double meshMessageDeliveriesDecay,
                          double meshMessageDeliveriesCap, double meshMessageDeliveriesThreshold,
                          Duration meshMessageDeliveriesWindow, Duration meshMessageDeliveriesActivation,
                          double invalidMessageDeliveriesWeight, double invalidMessageDeliveriesDecay,
                          double ipColocationFactorWeight, double ipColocationFactorThreshold,
                          double behaviourPenaltyWeight, double behaviourPenaltyDecay) {

    public static final ScoreParams DEFAULTS = new ScoreParams(-100, -1000, -10000,
            Duration.ofSeconds(12), 0.01, Duration.ofMinutes(10),
            0.01, Duration.ofSeconds(1), 10,
            1.0, 0.5, 10,
            0, 0, 0, 0, Duration.ofMillis(10), Duration.ofSeconds(0),
            -100, 0.5,
            -50, 5,
            -10, 0.986);

    public ScoreParams {
        if (!(graylistThreshold <= publishThreshold && publishThreshold <= gossipThreshold && gossipThreshold <= 0)) {
            throw new IllegalArgumentException("thresholds must satisfy graylist <= publish <= gossip <= 0");
        }
        GossipParams.positive("decayInterval", decayInterval);
        GossipParams.positive("timeInMeshQuantum", timeInMeshQuantum);
        GossipParams.positive("retainScore", retainScore);
        if (invalidMessageDeliveriesWeight > 0 || ipColocationFactorWeight > 0 || behaviourPenaltyWeight > 0
                || meshMessageDeliveriesWeight > 0) {
            throw new IllegalArgumentException("penalty weights (P3, P4, P6, P7) must not be positive");
        }
        for (double decay : new double[]{firstMessageDeliveriesDecay, meshMessageDeliveriesDecay,
                invalidMessageDeliveriesDecay, behaviourPenaltyDecay}) {
            if (decay < 0 || decay >= 1) {
                throw new IllegalArgumentException("decay factors must be in [0, 1), was " + decay);
            }
        }
    }
}
