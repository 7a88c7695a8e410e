package io.wakurelay.relay;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import static io.wakurelay.relay.ControlKind.GRAFT;
import static io.wakurelay.relay.ControlKind.IDONTWANT;
import static io.wakurelay.relay.ControlKind.IHAVE;
import static io.wakurelay.relay.ControlKind.IWANT;
import static io.wakurelay.relay.ControlKind.PRUNE;

/**
 * Why a peer's control messages were ignored, wholly or in part: the {@code reason} label of
 * {@code waku_relay_control_ignored_total}, with the kinds it applies to (each pair is registered at start).
 * Whether the sender pays for it too (P₇) is said here and decided by {@link ControlHandler}; docs/relay.md
 * ("Control floods") has the table.
 */
enum ControlIgnored {
    /** More than {@code maxControlPerRpc} control messages in one RPC: all dropped unparsed; penalised once. */
    RPC_LIMIT(EnumSet.allOf(ControlKind.class)),
    /**
     * Past a bound per heartbeat: GRAFTs and PRUNEs past theirs are penalised once per RPC; IHAVEs, IWANTs and
     * IDONTWANTs past theirs are only ignored, as go-libp2p-pubsub ignores them.
     */
    HEARTBEAT_LIMIT(EnumSet.allOf(ControlKind.class)),
    /** More ids in one IHAVE than {@code maxIHaveLength}, or in one RPC's IDONTWANTs than theirs: the rest ignored. */
    TOO_MANY_IDS(EnumSet.of(IHAVE, IDONTWANT)),
    /** For a topic this node has no mesh for: ignored, unanswered, not penalised (it may have just left it). */
    UNKNOWN_TOPIC(EnumSet.of(GRAFT, PRUNE, IHAVE)),
    /** A GRAFT during its backoff: answered with a PRUNE and penalised. */
    BACKOFF(EnumSet.of(GRAFT)),
    /** From a peer below the gossip threshold: not penalised again. */
    LOW_SCORE(EnumSet.of(IHAVE, IWANT)),
    /** An IWANT for a message already sent to the peer {@code gossipRetransmission} times: penalised per id. */
    RETRANSMISSION(EnumSet.of(IWANT));

    private final Set<ControlKind> kinds;

    ControlIgnored(Set<ControlKind> kinds) {
        this.kinds = kinds;
    }

    /** The kinds of control message this reason can apply to. */
    Set<ControlKind> kinds() {
        return kinds;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
