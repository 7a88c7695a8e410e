package io.wakurelay.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages being judged, with a validator installed, from their first copy's arrival to their verdict, and the
 * peers whose copies arrived meanwhile: those copies are not judged again but wait for the verdict, and their senders
 * are scored with it, as go-libp2p-pubsub scores the duplicates delivered while a message is validated (its delivery
 * record's "unknown" status): credited as mesh deliveries when it is accepted, penalised (P₄) when it is rejected,
 * neither when it is ignored. A peer's copies count once.
 *
 * <p>Bounded: an entry lives only while its message is judged (at most the validation stage's queue, and one message
 * per thread that judges at once), and holds at most {@code maxWaitingCopies} peers; a copy from a peer past that is a
 * duplicate no verdict scores. Not thread-safe: used under the router's lock.
 */
final class PendingVerdicts {
    private static final class Judged {
        final String topic;
        List<PeerState> waiting; // made for the first copy that waits

        Judged(String topic) {
            this.topic = topic;
        }
    }

    /** What a copy of a message being judged did. */
    enum Copy {
        /** Its sender waits for the verdict. */
        WAITS,
        /** Its sender is past the bound: not scored. */
        UNSCORED,
        /** Its sender's earlier copy waits already. */
        REPEATED
    }

    /** The peers that waited for a message's verdict, and its topic. */
    record Waiters(String topic, List<PeerState> peers) {
        static final Waiters NONE = new Waiters("", List.of());
    }

    private final int maxWaitingCopies;
    private final Map<MessageId, Judged> judged = new HashMap<>();

    PendingVerdicts(int maxWaitingCopies) {
        this.maxWaitingCopies = maxWaitingCopies;
    }

    /** The first copy of {@code id}, on {@code topic}, is being judged from now on. */
    void open(MessageId id, String topic) {
        judged.put(id, new Judged(topic));
    }

    /** A copy of {@code id} from {@code from}: null when {@code id} is not being judged, else what became of it. */
    Copy await(MessageId id, PeerState from) {
        Judged j = judged.get(id);
        if (j == null) {
            return null;
        }
        if (j.waiting == null) {
            j.waiting = new ArrayList<>(2);
        }
        if (j.waiting.contains(from)) {
            return Copy.REPEATED;
        }
        if (j.waiting.size() >= maxWaitingCopies) {
            return Copy.UNSCORED;
        }
        j.waiting.add(from);
        return Copy.WAITS;
    }

    /** {@code id} has its verdict: the peers whose copies waited for it ({@link Waiters#NONE} when it was not judged). */
    Waiters close(MessageId id) {
        Judged j = judged.remove(id);
        if (j == null) {
            return Waiters.NONE;
        }
        return new Waiters(j.topic, j.waiting == null ? List.of() : j.waiting);
    }

    int size() {
        return judged.size();
    }
}
