package io.wakurelay.node.rest;

import io.wakurelay.protocol.MessageHash;
import io.wakurelay.protocol.proto.WakuMessage;
import reactor.core.publisher.Mono;

import java.util.Collection;
import java.util.Set;

/**
 * What the REST API asks of the relay, and nothing more: the node plugs its relay in behind this, so that the
 * relay can change (its own frame protocol today, gossipsub tomorrow) without the REST API changing.
 */
public interface RelayPort {
    /**
     * Publishes a message from this node on a topic it relays.
     *
     * @return the message hash; errors with {@link io.wakurelay.protocol.ProtocolViolation} for an invalid
     * message, with {@link Busy} when the node's local queue is full (retry later), with {@link Unprovable} when the
     * relay validates RLN and the node cannot prove the message, with {@link Rejected} when the relay's validator
     * refused it, with {@link IllegalStateException} once the relay is shut down
     */
    Mono<MessageHash> publish(String pubsubTopic, WakuMessage message);

    /** The pubsub topics the node relays now. */
    Set<String> subscriptions();

    /**
     * Relays {@code topics} as well as those relayed now.
     *
     * @return completes once the relay's peers have read the subscription (a bounded wait), so that a peer that
     * publishes on the topics after it reaches this node
     * @throws TooManyTopics when that would pass the relay's limit on topics (nothing changes)
     */
    Mono<Void> subscribe(Collection<String> topics);

    void unsubscribe(Collection<String> topics);

    /** A subscription past the relay's limit on topics; the message names the limit (REST answers 400). */
    final class TooManyTopics extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public TooManyTopics(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The relay validates RLN and the node could not prove the message (nwaku's REST appends a proof of the node's
     * membership to every message it publishes; REST answers 500 with nwaku's text, which this message is).
     */
    final class Unprovable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unprovable(String message) {
            super(message, null, false, false);
        }
    }

    /** The relay's validator refused the message (REST answers 400 with nwaku's text, which this message is). */
    final class Rejected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Rejected(String message) {
            super(message, null, false, false);
        }
    }

    /** The node's local queue is full: nothing was published, the client may retry (REST answers 503). */
    final class Busy extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Busy(String message) {
            super(message, null, false, false);
        }
    }
}
