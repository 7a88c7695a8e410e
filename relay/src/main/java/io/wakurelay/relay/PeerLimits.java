package io.wakurelay.relay;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;

/**
 * What one relay peer may make this node do and hold through its control messages, per RPC and per heartbeat
 * (docs/relay.md, "Bounds", with the memory each allows). Each default is far above what an honest peer (nwaku,
 * go-waku, js-libp2p gossipsub, this node) sends, and is go-libp2p-pubsub's where go has the bound; IHAVE's two
 * bounds are among the router's parameters ({@link GossipParams#maxIHaveLength()},
 * {@link GossipParams#maxIHaveMessages()}), as in nwaku.
 *
 * @param maxControlPerRpc         control messages (GRAFT, PRUNE, IHAVE, IWANT, IDONTWANT; an empty control part
 *                                 counts as one) in one RPC, counted before they are parsed; past it the RPC's
 *                                 control is dropped unparsed and the sender penalised. This node sends up to
 *                                 {@code maxTopics} GRAFTs in one RPC when it joins that many topics at once
 * @param maxGraftsAndPrunesPerHeartbeat GRAFTs and PRUNEs taken from one peer per heartbeat; the rest are ignored
 *                                 and each RPC that brings more is penalised
 * @param maxIWantLength           message ids taken from one peer's IWANTs per heartbeat (twice go's IHAVE ask
 *                                 limit: a peer asks at most {@code maxIHaveLength} per heartbeat of its own, and
 *                                 two of them can fall within one of ours); the rest are ignored
 * @param maxIDontWantLength       message ids taken from one RPC's IDONTWANTs (go's MaxIDontWantLength)
 * @param maxIDontWantMessages     RPCs with IDONTWANT taken from one peer per heartbeat (go's MaxIDontWantMessages)
 * @param iDontWantTtl             heartbeats an IDONTWANT id is kept (go's IDontWantMessageTTL)
 * @param maxDontWantIds           IDONTWANT ids kept per peer; past it the oldest heartbeat's ids go early
 * @param maxPruneBackoff          the longest backoff taken from a peer's PRUNE (longer ones are cut to it)
 * @param maxRetainedScores        scores of disconnected peers remembered; past it the oldest goes first
 */
@RecordBuilder
public record PeerLimits(int maxControlPerRpc, int maxGraftsAndPrunesPerHeartbeat, int maxIWantLength,
                         int maxIDontWantLength, int maxIDontWantMessages, int iDontWantTtl, int maxDontWantIds,
                         Duration maxPruneBackoff, int maxRetainedScores) {

    public static final PeerLimits DEFAULTS = new PeerLimits(4096, 4096, 10_000, 10, 1000, 3, 4096,
            Duration.ofHours(1), 1024);

    public PeerLimits {
        positive("max control per RPC", maxControlPerRpc);
        positive("max GRAFTs and PRUNEs per heartbeat", maxGraftsAndPrunesPerHeartbeat);
        positive("max IWANT length", maxIWantLength);
        positive("max IDONTWANT length", maxIDontWantLength);
        positive("max IDONTWANT messages", maxIDontWantMessages);
        positive("IDONTWANT TTL", iDontWantTtl);
        positive("max IDONTWANT ids", maxDontWantIds);
        positive("max retained scores", maxRetainedScores);
        GossipParams.positive("maxPruneBackoff", maxPruneBackoff);
        // now + backoff in nanoseconds must not overflow, and a day is beyond any honest backoff
        if (maxPruneBackoff.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("max prune backoff must be at most a day, was " + maxPruneBackoff);
        }
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    public PeerLimitsBuilder toBuilder() {
        return PeerLimitsBuilder.builder(this);
    }
}
