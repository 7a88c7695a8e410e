package io.wakurelay.node.peers;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.util.List;

/** One peer in the {@link CandidateStore}, with its dial history. Guarded by the store. */
final class Candidate {
    final long added; // the store's order of arrival: the oldest of a kind leaves a full store first
    Enr record;
    List<Multiaddr> addresses;
    Origin origin;
    int failedAttempts;
    long lastFailedNanos;
    boolean dialling;
    /** Connected to at least once: the last kind a full store gives up. */
    boolean proven;

    Candidate(long added, Enr record, List<Multiaddr> addresses, Origin origin) {
        this.added = added;
        this.record = record;
        this.addresses = addresses;
        this.origin = origin;
    }

    /** Smaller leaves a full store first: peers that failed every dial, then failing, then untried, then proven. */
    int evictionRank(int maxFailedAttempts) {
        if (failedAttempts >= maxFailedAttempts) {
            return 0;
        }
        if (failedAttempts > 0) {
            return 1;
        }
        return proven ? 3 : 2;
    }
}
