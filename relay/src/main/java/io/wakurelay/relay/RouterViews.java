package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/** Copies of the router's peer and mesh state for readers outside its lock (the admin API, tests); called under it. */
final class RouterViews {
    private RouterViews() {
    }

    static List<RelayPeer> peers(Collection<PeerState> peers, Map<String, Set<PeerState>> mesh,
                                 ToDoubleFunction<PeerState> score) {
        List<RelayPeer> result = new ArrayList<>();
        for (PeerState p : peers) {
            List<String> meshTopics = new ArrayList<>();
            for (Map.Entry<String, Set<PeerState>> m : mesh.entrySet()) {
                if (m.getValue().contains(p)) {
                    meshTopics.add(m.getKey());
                }
            }
            result.add(new RelayPeer(p.id, p.connection, score.applyAsDouble(p), List.copyOf(p.topics), meshTopics,
                    p.sender.isOpen(), p.sender.queuedBytes(), p.sender.drops()));
        }
        return result;
    }

    static Map<String, List<PeerId>> mesh(Map<String, Set<PeerState>> mesh) {
        Map<String, List<PeerId>> result = new LinkedHashMap<>();
        for (Map.Entry<String, Set<PeerState>> m : mesh.entrySet()) {
            result.put(m.getKey(), m.getValue().stream().map(p -> p.id).toList());
        }
        return result;
    }

    /** What peers can make the router hold, summed over the connected peers. */
    record StateSizes(int backoffs, int scoredTopics, int dontWantIds, int promises, int retainedScores) {
    }

    static StateSizes stateSizes(Collection<PeerState> peers, int promises, int retainedScores) {
        return new StateSizes(peers.stream().mapToInt(p -> p.backoffUntilNanos.size()).sum(),
                peers.stream().mapToInt(p -> p.score.topicCount()).sum(),
                peers.stream().mapToInt(p -> p.dontWant.size()).sum(), promises, retainedScores);
    }
}
