package io.wakurelay.services.filter;

import io.wakurelay.p2p.connection.Connection;
import io.wakurelay.p2p.crypto.PeerId;

import io.wakurelay.services.filter.FilterSubscriber.Criterion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Who is subscribed to what. Changes (rare: a request each) take this object's lock; the lookup of every accepted
 * message ({@link #subscribersOf}) takes none: it reads an index of (pubsub topic → content topic → subscribers)
 * whose arrays are replaced, never changed, under the lock.
 */
final class FilterSubscriptions {
    /** nwaku's words ({@code FilterSubscribeError.notFound}), which its filter REST API passes on to scripts. */
    static final String NO_SUBSCRIPTIONS = "peer has no subscriptions";

    private static final FilterSubscriber[] NONE = new FilterSubscriber[0];

    /** A change's verdict: its status and what to tell the peer. */
    record Answer(FilterStatus status, String description) {
        static final Answer OK = new Answer(FilterStatus.SUCCESS, "OK");
    }

    private final FilterConfig config;
    private final LongSupplier nanoClock;
    private final BiConsumer<FilterSubscriber, FilterRemoval> removed;
    private final Map<PeerId, FilterSubscriber> byPeer = new HashMap<>();
    private final Map<String, Map<String, FilterSubscriber[]>> index = new ConcurrentHashMap<>();
    private int criteriaCount;

    /** @param removed told of each subscriber that goes, and why; called under this object's lock, so it must not block */
    FilterSubscriptions(FilterConfig config, LongSupplier nanoClock, BiConsumer<FilterSubscriber, FilterRemoval> removed) {
        this.config = config;
        this.nanoClock = nanoClock;
        this.removed = removed;
    }

    /** The live subscribers of a message of {@code contentTopic} on {@code pubsubTopic}; an array not to be changed. */
    FilterSubscriber[] subscribersOf(String pubsubTopic, String contentTopic) {
        Map<String, FilterSubscriber[]> byContent = index.get(pubsubTopic);
        if (byContent == null) {
            return NONE;
        }
        FilterSubscriber[] subscribers = byContent.get(contentTopic);
        return subscribers == null ? NONE : subscribers;
    }

    /**
     * Adds criteria for {@code peer} (or refreshes them), creating its subscriber with a push channel on
     * {@code connection} when it has none, or moving it to {@code connection} when it subscribes over a new one.
     */
    synchronized Answer subscribe(PeerId peer, Connection connection, String pubsubTopic, List<String> contentTopics,
                                  Function<Connection, FilterPushChannel> channels) {
        Set<Criterion> wanted = new LinkedHashSet<>();
        contentTopics.forEach(ct -> wanted.add(new Criterion(pubsubTopic, ct)));
        FilterSubscriber subscriber = byPeer.get(peer);
        long now = nanoClock.getAsLong();
        if (subscriber == null) {
            if (byPeer.size() >= config.maxPeersToServe()) {
                return new Answer(FilterStatus.SERVICE_UNAVAILABLE, "this node serves at most " + config.maxPeersToServe()
                        + " filter subscribers");
            }
            if (wanted.size() > config.maxCriteriaPerPeer()) {
                return tooManyCriteria();
            }
            subscriber = new FilterSubscriber(peer, channels.apply(connection), now);
            byPeer.put(peer, subscriber);
        } else {
            Set<Criterion> held = subscriber.criteria;
            long added = wanted.stream().filter(c -> !held.contains(c)).count();
            if (subscriber.criteria.size() + added > config.maxCriteriaPerPeer()) {
                return tooManyCriteria();
            }
            if (subscriber.channel().connection() != connection) {
                subscriber.replaceChannel(channels.apply(connection)).close(true);
            }
            subscriber.refresh(now);
        }
        for (Criterion c : wanted) {
            if (subscriber.criteria.add(c)) {
                criteriaCount++;
                indexAdd(c, subscriber);
            }
        }
        return Answer.OK;
    }

    private Answer tooManyCriteria() {
        return new Answer(FilterStatus.SERVICE_UNAVAILABLE, "a subscriber may hold at most " + config.maxCriteriaPerPeer()
                + " (pubsub topic, content topic) criteria");
    }

    /**
     * Removes criteria; 404 when the peer held none of them (nwaku's {@value #NO_SUBSCRIPTIONS} also for a peer that
     * holds others). A subscriber left with none is removed.
     */
    synchronized Answer unsubscribe(PeerId peer, String pubsubTopic, List<String> contentTopics) {
        FilterSubscriber subscriber = byPeer.get(peer);
        if (subscriber == null) {
            return new Answer(FilterStatus.NOT_FOUND, NO_SUBSCRIPTIONS);
        }
        subscriber.refresh(nanoClock.getAsLong());
        int before = subscriber.criteria.size();
        for (String ct : contentTopics) {
            Criterion c = new Criterion(pubsubTopic, ct);
            if (subscriber.criteria.remove(c)) {
                criteriaCount--;
                indexRemove(c, subscriber);
            }
        }
        if (subscriber.criteria.size() == before) {
            return new Answer(FilterStatus.NOT_FOUND, NO_SUBSCRIPTIONS); // nwaku's words for any criterion not held
        }
        if (subscriber.criteria.isEmpty()) {
            remove(subscriber, FilterRemoval.UNSUBSCRIBED);
        }
        return Answer.OK;
    }

    synchronized Answer unsubscribeAll(PeerId peer) {
        FilterSubscriber subscriber = byPeer.get(peer);
        if (subscriber == null) {
            return new Answer(FilterStatus.NOT_FOUND, NO_SUBSCRIPTIONS);
        }
        remove(subscriber, FilterRemoval.UNSUBSCRIBED);
        return Answer.OK;
    }

    /** A subscriber's ping: refreshes its subscription, or 404 when it has none (or it expired). */
    synchronized Answer ping(PeerId peer) {
        FilterSubscriber subscriber = byPeer.get(peer);
        long now = nanoClock.getAsLong();
        if (subscriber == null || subscriber.isExpired(now, config.subscriptionTimeout().toNanos())) {
            return new Answer(FilterStatus.NOT_FOUND, NO_SUBSCRIPTIONS);
        }
        subscriber.refresh(now);
        return Answer.OK;
    }

    /** Removes the subscriber of {@code peer} if its pushes go through {@code connection} (which closed). */
    synchronized void disconnected(PeerId peer, Connection connection) {
        FilterSubscriber subscriber = byPeer.get(peer);
        if (subscriber != null && subscriber.channel().connection() == connection) {
            remove(subscriber, FilterRemoval.DISCONNECTED);
        }
    }

    /** Removes {@code subscriber} if it is still the one of its peer. */
    synchronized void remove(FilterSubscriber subscriber, FilterRemoval reason) {
        if (byPeer.get(subscriber.peer) != subscriber) {
            return;
        }
        byPeer.remove(subscriber.peer);
        for (Criterion c : subscriber.criteria) {
            indexRemove(c, subscriber);
        }
        criteriaCount -= subscriber.criteria.size();
        subscriber.criteria.clear();
        removed.accept(subscriber, reason);
    }

    /** Removes the subscribers that did not refresh in time; returns how many. */
    synchronized int removeExpired() {
        long now = nanoClock.getAsLong();
        long timeout = config.subscriptionTimeout().toNanos();
        List<FilterSubscriber> expired = new ArrayList<>();
        for (FilterSubscriber s : byPeer.values()) {
            if (s.isExpired(now, timeout)) {
                expired.add(s);
            }
        }
        expired.forEach(s -> remove(s, FilterRemoval.EXPIRED));
        return expired.size();
    }

    synchronized void removeAll(FilterRemoval reason) {
        new ArrayList<>(byPeer.values()).forEach(s -> remove(s, reason));
    }

    synchronized int subscriberCount() {
        return byPeer.size();
    }

    synchronized int criteriaCount() {
        return criteriaCount;
    }

    /**
     * Every subscriber's criteria as (pubsub topic, content topic) pairs, sorted, copied under the lock: at most
     * {@code maxPeersToServe} subscribers of {@code maxCriteriaPerPeer} pairs each.
     */
    synchronized Map<PeerId, List<List<String>>> snapshot() {
        Map<PeerId, List<List<String>>> out = new java.util.LinkedHashMap<>();
        for (FilterSubscriber s : byPeer.values()) {
            out.put(s.peer, s.criteria.stream().map(c -> List.of(c.pubsubTopic(), c.contentTopic()))
                    .sorted(java.util.Comparator.<List<String>, String>comparing(c -> c.get(0)).thenComparing(c -> c.get(1)))
                    .toList());
        }
        return out;
    }

    synchronized FilterSubscriber subscriber(PeerId peer) {
        return byPeer.get(peer);
    }

    private void indexAdd(Criterion c, FilterSubscriber s) {
        Map<String, FilterSubscriber[]> byContent = index.computeIfAbsent(c.pubsubTopic(), t -> new ConcurrentHashMap<>());
        FilterSubscriber[] now = byContent.getOrDefault(c.contentTopic(), NONE);
        FilterSubscriber[] next = Arrays.copyOf(now, now.length + 1);
        next[now.length] = s;
        byContent.put(c.contentTopic(), next);
    }

    private void indexRemove(Criterion c, FilterSubscriber s) {
        Map<String, FilterSubscriber[]> byContent = index.get(c.pubsubTopic());
        if (byContent == null) {
            return;
        }
        FilterSubscriber[] now = byContent.get(c.contentTopic());
        if (now == null) {
            return;
        }
        FilterSubscriber[] next = Arrays.stream(now).filter(x -> x != s).toArray(FilterSubscriber[]::new);
        if (next.length == 0) {
            byContent.remove(c.contentTopic());
            if (byContent.isEmpty()) {
                index.remove(c.pubsubTopic());
            }
        } else {
            byContent.put(c.contentTopic(), next);
        }
    }
}
