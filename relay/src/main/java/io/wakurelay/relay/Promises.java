package io.wakurelay.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * IHAVE's promises: when this node asks a peer for messages it advertised, one of them (at random) must arrive
 * within the IWANT follow-up time, from anyone, or the advertiser broke its promise and is penalised (gossipsub
 * v1.1, "Spam Protection Measures"). Not thread-safe: used under the router's lock.
 */
final class Promises {
    private record Promise(PeerState peer, long deadlineNanos) {
    }

    private final Map<MessageId, Promise> byId = new HashMap<>();

    /** {@code peer} advertised {@code id} and this node asked for it. */
    void promise(MessageId id, PeerState peer, long deadlineNanos) {
        byId.put(id, new Promise(peer, deadlineNanos));
    }

    boolean isPromised(MessageId id) {
        return byId.containsKey(id);
    }

    /** The message arrived: whoever delivered it, its advertiser kept its promise. */
    void kept(MessageId id) {
        byId.remove(id);
    }

    /** The peer is gone: its promises with it. */
    void forget(PeerState peer) {
        byId.values().removeIf(p -> p.peer == peer);
    }

    /** Removes the promises past their deadline and returns their advertisers, once per broken promise. */
    List<PeerState> broken(long nowNanos) {
        List<PeerState> breakers = new ArrayList<>();
        var it = byId.values().iterator();
        while (it.hasNext()) {
            Promise promise = it.next();
            if (promise.deadlineNanos <= nowNanos) {
                it.remove();
                breakers.add(promise.peer);
            }
        }
        return breakers;
    }

    int size() {
        return byId.size();
    }
}
