package io.wakurelay.relay;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Copies of the {@link RouterState} for readers outside the router's lock (the admin API, tests), made under it; and
 * what the gauges read.
 */
final class RouterViews {
    private RouterViews() {
    }

    static List<RelayPeer> peers(RouterState state, long now) {
        List<RelayPeer> result = new ArrayList<>();
        for (PeerState p : state.peers()) {
            result.add(new RelayPeer(p.id, p.connection, state.score(p, now), List.copyOf(p.topics),
                    state.meshTopicsOf(p), p.sender.isOpen(), p.sender.queuedBytes(), p.sender.drops()));
        }
        return result;
    }

    static Map<String, List<PeerId>> mesh(RouterState state) {
        Map<String, List<PeerId>> result = new LinkedHashMap<>();
        for (String topic : state.meshTopics()) {
            result.put(topic, state.mesh(topic).stream().map(p -> p.id).toList());
        }
        return result;
    }

    /** Tells {@code events} what the router's gauges read, each under the router's lock where the lock guards it. */
    static void tellReadings(RouterEvents events, RouterState state, SeenCache seen, MessageCache cache,
                             RejectedMessages rejected, HandOver handOver, Supplier<Set<String>> topics) {
        events.reading(Reading.SEEN_CACHE_ENTRIES, () -> locked(state, seen::size));
        events.reading(Reading.SEEN_CACHE_EVICTIONS, () -> locked(state, seen::evictedEarly));
        events.reading(Reading.MESSAGE_CACHE_BYTES, () -> locked(state, cache::bytes));
        events.reading(Reading.MESSAGE_CACHE_EVICTIONS, () -> locked(state, cache::evictedEarly));
        events.reading(Reading.INBOUND_PENDING, handOver::pending);
        events.reading(Reading.PEERS,
                () -> locked(state, () -> state.peers().stream().filter(p -> p.sender.isOpen()).count()));
        events.reading(Reading.PEER_QUEUE_BYTES,
                () -> locked(state, () -> state.peers().stream().mapToLong(p -> p.sender.queuedBytes()).sum()));
        events.reading(Reading.TOPICS, () -> topics.get().size());
        events.reading(Reading.REJECTED_IDS, () -> locked(state, rejected::size));
        events.reading(Reading.IDONTWANT_IDS, () -> locked(state, () -> stateSizes(state).dontWantIds()));
        events.reading(Reading.IWANT_PROMISES, () -> locked(state, () -> stateSizes(state).promises()));
        events.reading(Reading.RETAINED_SCORES, () -> locked(state, () -> stateSizes(state).retainedScores()));
    }

    private static <T> T locked(RouterState state, Supplier<T> read) {
        synchronized (state) {
            return read.get();
        }
    }

    /** What peers can make the router hold, summed over the connected peers. */
    record StateSizes(int backoffs, int scoredTopics, int dontWantIds, int promises, int retainedScores) {
    }

    static StateSizes stateSizes(RouterState state) {
        return new StateSizes(state.peers().stream().mapToInt(p -> p.backoffUntilNanos.size()).sum(),
                state.peers().stream().mapToInt(p -> p.score.topicCount()).sum(),
                state.peers().stream().mapToInt(p -> p.dontWant.size()).sum(), state.promises.size(),
                state.retainedScores.size());
    }
}
