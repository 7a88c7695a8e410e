package io.wakurelay.relay;

import io.wakurelay.protocol.Violation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most recent messages this node rejected, by id, with the reason: a later copy of one is rejected again and
 * costs its sender as much (P₄), as go-libp2p-pubsub penalises the senders of duplicates of an invalid message.
 * Without it a copy is dropped by the seen cache before validation, so that spammers sending the same invalid
 * message at once shared one penalty. Bounded: past {@link #CAPACITY} the oldest is forgotten (its copies are then
 * plain duplicates again). Not thread-safe: used under the router's lock.
 */
final class RejectedMessages {
    static final int CAPACITY = 4096;

    private final Map<MessageId, Violation> rejected = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<MessageId, Violation> eldest) {
            return size() > CAPACITY;
        }
    };

    void add(MessageId id, Violation violation) {
        rejected.put(id, violation);
    }

    /** Why the message was rejected, or null when it was not (or is forgotten). */
    Violation reason(MessageId id) {
        return rejected.get(id);
    }

    int size() {
        return rejected.size();
    }
}
