package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The scores of disconnected peers, kept {@code retainScore} (gossipsub v1.1's RetainScore) so that reconnecting
 * does not wash a bad one. At most {@code capacity}: a peer that cycles identities would otherwise add one for each
 * for ten minutes; past it the oldest goes first, the one nearest its expiry anyway. Kept in the order they were
 * retained, which is the order they expire in. Not thread-safe: used under the router's lock.
 */
final class RetainedScores {
    private record Retained(PeerScore score, long expiresNanos) {
    }

    private final Map<PeerId, Retained> byPeer = new LinkedHashMap<>();
    private final int capacity;
    private final long retainNanos;

    RetainedScores(int capacity, long retainNanos) {
        this.capacity = capacity;
        this.retainNanos = retainNanos;
    }

    /** {@code peer} disconnected with {@code score}. */
    void retain(PeerId peer, PeerScore score, long nowNanos) {
        byPeer.remove(peer);
        byPeer.put(peer, new Retained(score, nowNanos + retainNanos));
        var oldest = byPeer.values().iterator();
        while (byPeer.size() > capacity) {
            oldest.next();
            oldest.remove();
        }
    }

    /** The score {@code peer} left with, no longer retained; null when there is none. */
    PeerScore take(PeerId peer) {
        Retained retained = byPeer.remove(peer);
        return retained == null ? null : retained.score;
    }

    /** Forgets the scores retained for their whole time. */
    void expire(long nowNanos) {
        var it = byPeer.values().iterator();
        while (it.hasNext() && it.next().expiresNanos <= nowNanos) {
            it.remove();
        }
    }

    /** Retained scores decay as the connected peers' do. */
    void decay() {
        byPeer.values().forEach(r -> r.score.decay());
    }

    int size() {
        return byPeer.size();
    }
}
