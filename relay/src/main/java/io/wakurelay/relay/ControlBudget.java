package io.wakurelay.relay;

/**
 * What one peer may still send of each kind of control this heartbeat ({@link PeerLimits}, and
 * {@link GossipParams}' two IHAVE bounds): taken as its control arrives, given back whole at each heartbeat. What
 * happens past each bound (ignored, or penalised too) is the {@link ControlHandler}'s to decide. Not thread-safe:
 * used under the router's lock.
 */
final class ControlBudget {
    private final int maxGraftsAndPrunes;
    private final int maxIHaveRpcs;
    private final int maxIHaveAsks;
    private final int maxIWantIds;
    private final int maxIDontWantRpcs;
    private int graftsAndPrunes;
    private int iHaveRpcs;
    private int iHaveAsks;
    private int iWantIds;
    private int iDontWantRpcs;

    ControlBudget(RelayConfig config) {
        this.maxGraftsAndPrunes = config.peerLimits().maxGraftsAndPrunesPerHeartbeat();
        this.maxIHaveRpcs = config.gossip().maxIHaveMessages();
        this.maxIHaveAsks = config.gossip().maxIHaveLength();
        this.maxIWantIds = config.peerLimits().maxIWantLength();
        this.maxIDontWantRpcs = config.peerLimits().maxIDontWantMessages();
    }

    /** Takes up to {@code wanted} GRAFTs and PRUNEs; returns how many fit. */
    int takeGraftsAndPrunes(int wanted) {
        int taken = Math.min(wanted, maxGraftsAndPrunes - graftsAndPrunes);
        graftsAndPrunes += taken;
        return taken;
    }

    /** An RPC with IHAVEs; false past {@code maxIHaveMessages} this heartbeat (go counts RPCs, not IHAVEs). */
    boolean takeIHaveRpc() {
        if (iHaveRpcs == maxIHaveRpcs) {
            return false;
        }
        iHaveRpcs++;
        return true;
    }

    /** An advertised id this node asks for; false past {@code maxIHaveLength} asked this heartbeat. */
    boolean takeIHaveAsk() {
        if (iHaveAsks == maxIHaveAsks) {
            return false;
        }
        iHaveAsks++;
        return true;
    }

    /** An id of an IWANT; false past {@code maxIWantLength} this heartbeat. */
    boolean takeIWantId() {
        if (iWantIds == maxIWantIds) {
            return false;
        }
        iWantIds++;
        return true;
    }

    /** An RPC with IDONTWANTs; false past {@code maxIDontWantMessages} this heartbeat. */
    boolean takeIDontWantRpc() {
        if (iDontWantRpcs == maxIDontWantRpcs) {
            return false;
        }
        iDontWantRpcs++;
        return true;
    }

    /** A heartbeat: every bound starts again. */
    void refill() {
        graftsAndPrunes = 0;
        iHaveRpcs = 0;
        iHaveAsks = 0;
        iWantIds = 0;
        iDontWantRpcs = 0;
    }
}
