package io.wakurelay.node.peers;

import io.wakurelay.discovery.enr.Enr;
import io.wakurelay.discovery.peers.Origin;
import io.wakurelay.node.config.PeerManagerConfig;
import io.wakurelay.p2p.crypto.PeerId;
import io.wakurelay.p2p.multiaddr.Multiaddr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;

/**
 * The peers discovery offered, each with its origin and dial history (nwaku's peer store), at most
 * {@link #capacity()} of them. A newcomer to a full store takes the place of a peer not connected and not being
 * dialled, in this order (nwaku's {@code prunePeerStore} also drops failed peers first): one that failed
 * {@code maxFailedAttempts} dials, one that failed some, one never tried, one connected to before; the oldest of a
 * kind first. When every peer is connected or being dialled the newcomer is refused. So a flood of fresh records
 * (a peer exchange answer, discv5 NODES) only churns the untried part of the store: peers proven to connect stay.
 */
final class CandidateStore {
    /**
     * What {@link #offer} did: kept a new peer, updated a known one, or refused it for naming no TCP or WebSocket
     * address, for naming only addresses the dial policy refuses ({@code FILTERED}), or because the store was full.
     */
    enum Offer { ADDED, UPDATED, NO_ADDRESS, FILTERED, FULL }

    private final int capacity;
    private final PeerManagerConfig config;
    private final Map<PeerId, Candidate> byPeer = new LinkedHashMap<>();
    private final Random random = new Random();
    private long arrivals;
    private long evictions;

    CandidateStore(int capacity, PeerManagerConfig config) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the candidate store needs room for one peer, capacity " + capacity);
        }
        this.capacity = capacity;
        this.config = config;
    }

    int capacity() {
        return capacity;
    }

    synchronized int size() {
        return byPeer.size();
    }

    synchronized long evictions() {
        return evictions;
    }

    /**
     * Keeps {@code record} as a candidate, to be dialled at {@code allowed} (its TCP and WebSocket addresses the dial
     * policy allows; {@code connected} tells which peers hold a connection now: those are never evicted). A newer
     * record of a known peer replaces the old one; its dial history stays.
     */
    synchronized Offer offer(Enr record, List<Multiaddr> allowed, Origin origin, Predicate<PeerId> connected) {
        if (allowed.isEmpty()) {
            return record.dialAddresses().stream().anyMatch(a -> a.isTcp() || a.isWebSocket()) ? Offer.FILTERED
                    : Offer.NO_ADDRESS;
        }
        List<Multiaddr> addresses = List.copyOf(allowed);
        Candidate known = byPeer.get(record.peerId());
        if (known != null) {
            if (record.seq() >= known.record.seq()) {
                known.record = record;
                known.addresses = addresses;
                known.origin = origin;
            }
            return Offer.UPDATED;
        }
        if (byPeer.size() >= capacity) {
            PeerId victim = victim(connected);
            if (victim == null) {
                return Offer.FULL;
            }
            byPeer.remove(victim);
            evictions++;
        }
        byPeer.put(record.peerId(), new Candidate(arrivals++, record, addresses, origin));
        return Offer.ADDED;
    }

    private PeerId victim(Predicate<PeerId> connected) {
        Candidate best = null;
        for (Candidate c : byPeer.values()) { // in order of arrival: the first of the lowest rank is the oldest
            if (c.dialling || connected.test(c.record.peerId())) {
                continue;
            }
            int rank = c.evictionRank(config.maxFailedAttempts());
            if (best == null || rank < best.evictionRank(config.maxFailedAttempts())) {
                best = c;
                if (rank == 0) {
                    break;
                }
            }
        }
        return best == null ? null : best.record.peerId();
    }

    /**
     * Up to {@code n} candidates to dial now, picked at random as nwaku shuffles them: not connected, not being
     * dialled, not {@code skipped}, under {@code maxFailedAttempts} failures and out of their backoff. Each is
     * marked as being dialled until {@link #dialled}.
     */
    synchronized List<Candidate> takeForDial(int n, long nowNanos, Predicate<PeerId> connectedOrSkipped) {
        if (n <= 0) {
            return List.of();
        }
        List<Candidate> ready = new ArrayList<>();
        for (Candidate c : byPeer.values()) {
            if (!c.dialling && dialable(c, nowNanos) && !connectedOrSkipped.test(c.record.peerId())) {
                ready.add(c);
            }
        }
        Collections.shuffle(ready, random);
        List<Candidate> taken = List.copyOf(ready.subList(0, Math.min(n, ready.size())));
        taken.forEach(c -> c.dialling = true);
        return taken;
    }

    /** nwaku's {@code canBeConnected}: never failed, or out of the backoff of its failures, and not given up on. */
    boolean dialable(Candidate c, long nowNanos) {
        if (c.failedAttempts == 0) {
            return true;
        }
        if (c.failedAttempts >= config.maxFailedAttempts()) {
            return false;
        }
        return nowNanos - c.lastFailedNanos >= config.backoff(c.failedAttempts).toNanos();
    }

    /** The dial of {@code c} ended: a success clears its failures, a failure starts (a longer) backoff. */
    synchronized void dialled(Candidate c, boolean connected, long nowNanos) {
        c.dialling = false;
        if (connected) {
            c.failedAttempts = 0;
            c.proven = true;
        } else {
            c.failedAttempts++;
            c.lastFailedNanos = nowNanos;
        }
    }

    synchronized List<CandidateView> views() {
        List<CandidateView> out = new ArrayList<>(byPeer.size());
        for (Candidate c : byPeer.values()) {
            out.add(new CandidateView(c.record.peerId(), c.addresses, c.origin, c.failedAttempts));
        }
        return out;
    }

    /** The candidate of {@code peer}, or null (tests). */
    synchronized Candidate get(PeerId peer) {
        return byPeer.get(peer);
    }
}
