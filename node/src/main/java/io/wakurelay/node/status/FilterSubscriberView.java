package io.wakurelay.node.status;

import java.util.List;

/**
 * One filter subscriber of this node's filter service, as {@code GET /admin/v1/filter/subscriptions} shows it.
 *
 * @param peerId   the subscriber's libp2p peer id
 * @param criteria its (pubsub topic, content topic) pairs
 */
public record FilterSubscriberView(String peerId, List<Criterion> criteria) {
    /** One (pubsub topic, content topic) pair a subscriber is pushed messages of. */
    public record Criterion(String pubsubTopic, String contentTopic) {
    }
}
