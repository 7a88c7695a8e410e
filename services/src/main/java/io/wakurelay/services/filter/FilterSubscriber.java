package io.wakurelay.services.filter;

import io.wakurelay.p2p.crypto.PeerId;

import java.util.HashSet;
import java.util.Set;

/**
 * One peer's subscription: its criteria (guarded by {@link FilterSubscriptions}), when it last refreshed them, and
 * the channel its pushes go through (replaced when it subscribes again over a new connection).
 */
final class FilterSubscriber {
    /** One (pubsub topic, content topic) pair a subscriber wants. */
    record Criterion(String pubsubTopic, String contentTopic) {
    }

    final PeerId peer;
    final Set<Criterion> criteria = new HashSet<>();
    private volatile long lastSeenNanos;
    private volatile FilterPushChannel channel;

    FilterSubscriber(PeerId peer, FilterPushChannel channel, long nowNanos) {
        this.peer = peer;
        this.channel = channel;
        this.lastSeenNanos = nowNanos;
    }

    FilterPushChannel channel() {
        return channel;
    }

    /** The old channel, to be closed by the caller. */
    FilterPushChannel replaceChannel(FilterPushChannel next) {
        FilterPushChannel old = channel;
        channel = next;
        return old;
    }

    void refresh(long nowNanos) {
        lastSeenNanos = nowNanos;
    }

    boolean isExpired(long nowNanos, long timeoutNanos) {
        return nowNanos - lastSeenNanos > timeoutNanos;
    }
}
