package io.wakurelay.relay;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;

/**
 * The gossipsub v1.1 router's parameters (libp2p/specs pubsub/gossipsub/gossipsub-v1.0.md and -v1.1.md); the
 * defaults are nwaku's ({@code waku/waku_relay/protocol.nim}).
 *
 * @param d                    desired mesh degree
 * @param dLo                  fewer mesh peers than this and the heartbeat grafts more
 * @param dHi                  more mesh peers than this and the heartbeat prunes down to {@code d}
 * @param dScore               of the peers kept when pruning, this many are the best scoring
 * @param dOut                 mesh peers that must be outbound connections (eclipse resistance)
 * @param dLazy                peers that get IHAVE gossip each heartbeat (at least; see {@code gossipFactor})
 * @param gossipFactor         share of eligible peers gossiped to when more than {@code dLazy} are eligible
 * @param heartbeat            interval of mesh maintenance, gossip emission and cache shifts
 * @param historyLength        heartbeats of messages kept in the message cache for IWANT
 * @param historyGossip        of those, heartbeats of message ids advertised in IHAVE
 * @param seenTtl              how long a message id is remembered for dedup
 * @param fanoutTtl            how long a topic published to without subscribing keeps its fanout peers
 * @param pruneBackoff         how long a pruned peer may not GRAFT again
 * @param unsubscribeBackoff   backoff sent in the PRUNEs of a topic this node leaves
 * @param floodPublish         own messages go to every peer of the topic above the publish threshold, not just the mesh
 * @param maxIHaveLength       message ids taken from one peer's IHAVEs per heartbeat
 * @param maxIHaveMessages     IHAVE messages taken from one peer per heartbeat
 * @param iwantFollowupTime    time an IHAVE's promise has to be kept once we asked for the message
 * @param gossipRetransmission times a message is sent to one peer in answer to its IWANTs
 * @param iDontWantMinBytes    a first copy of a message larger than this (its WakuMessage bytes) is announced in an
 *                             IDONTWANT to the other mesh peers of its topic before it is validated (gossipsub v1.2;
 *                             nim-libp2p's rule, {@code data.len > max(512, 10 × id length)}, so 512 for Waku's
 *                             32-byte ids); {@link #IDONTWANT_OFF} sends none
 */
@RecordBuilder
public record GossipParams(int d, int dLo, int dHi, int dScore, int dOut, int dLazy, double gossipFactor,
                           Duration heartbeat, int historyLength, int historyGossip, Duration seenTtl,
                           Duration fanoutTtl, Duration pruneBackoff, Duration unsubscribeBackoff, boolean floodPublish,
                           int maxIHaveLength, int maxIHaveMessages, Duration iwantFollowupTime,
                           int gossipRetransmission, int iDontWantMinBytes) {

    /** {@code iDontWantMinBytes} that sends no IDONTWANT (a message is never larger). */
    public static final int IDONTWANT_OFF = Integer.MAX_VALUE;

    public static final GossipParams DEFAULTS = new GossipParams(6, 4, 8, 6, 3, 6, 0.25, Duration.ofSeconds(1), 6, 3,
            Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofSeconds(5), true,
            5000, 10, Duration.ofSeconds(3), 3, 512);

    public GossipParams {
        if (!(0 < dLo && dLo <= d && d <= dHi)) {
            throw new IllegalArgumentException("mesh degrees must satisfy 0 < Dlo <= D <= Dhi, were Dlo=" + dLo + " D=" + d + " Dhi=" + dHi);
        }
        if (dScore < 0 || dScore > d) {
            throw new IllegalArgumentException("Dscore must be in 0..D, was " + dScore);
        }
        if (dOut < 0 || dOut >= dLo || dOut > d / 2) {
            throw new IllegalArgumentException("Dout must be below Dlo and at most D/2 (the spec's rule), was " + dOut);
        }
        if (dLazy < 0 || gossipFactor < 0 || gossipFactor > 1) {
            throw new IllegalArgumentException("Dlazy must not be negative and the gossip factor must be in 0..1");
        }
        positive("heartbeat", heartbeat);
        if (historyGossip < 1 || historyLength < historyGossip) {
            throw new IllegalArgumentException("history gossip must be 1..history length, were " + historyGossip + " and " + historyLength);
        }
        positive("seenTtl", seenTtl);
        positive("fanoutTtl", fanoutTtl);
        positive("pruneBackoff", pruneBackoff);
        positive("unsubscribeBackoff", unsubscribeBackoff);
        positive("iwantFollowupTime", iwantFollowupTime);
        if (maxIHaveLength < 1 || maxIHaveMessages < 1 || gossipRetransmission < 1) {
            throw new IllegalArgumentException("IHAVE limits and the gossip retransmission limit must be positive");
        }
        if (iDontWantMinBytes < 0) {
            throw new IllegalArgumentException("the IDONTWANT size threshold must not be negative, was " + iDontWantMinBytes);
        }
    }

    static void positive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    public GossipParamsBuilder toBuilder() {
        return GossipParamsBuilder.builder(this);
    }
}
