package io.wakurelay.node.rest;

import io.wakurelay.protocol.Envelope;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Messages kept for topics subscribed over REST and for those the node was started with, for
 * {@code GET /relay/v1/messages/{topic}} (nwaku's relay cache). Each is kept as it arrived: the envelope, retained (no
 * copy and no JSON on the message path; the JSON is rendered when a client reads it). Bounded per topic by count
 * ({@code capacity}, oldest dropped first) and for all topics together by the bytes the kept envelopes hold alive
 * ({@link Envelope#retainedBytes()}, at most {@code maxBytes}): a client that polls slowly, or never, holds at most that
 * much. A message that does not fit even after its own topic's older messages are dropped is itself dropped; every
 * drop is counted. Content topics subscribed with automatic sharding ({@code /relay/v1/auto/subscriptions}, or
 * {@code --content-topic}) have caches of their own, under {@link #contentKey}. {@link #close()} releases everything
 * and keeps nothing from then on.
 */
public final class TopicCache implements AutoCloseable {
    /**
     * Content topics (automatic sharding) with a cache at once: a client could otherwise open caches without end.
     * Pubsub topics need no bound of their own: only topics the relay took (at most its {@code maxTopics}) get one.
     */
    public static final int MAX_CONTENT_TOPICS = 1024;
    /** Pubsub topics start with '/', so no pubsub topic's key starts with this. */
    private static final String CONTENT_PREFIX = "content:";
    private final int capacity;
    private final long maxBytes;
    private final Map<String, ArrayDeque<Envelope>> topics = new HashMap<>();
    private long bytes;
    private long messages;
    private long dropped;
    private boolean closed;
    /** Open content-topic caches: read on every delivered message, so that it costs nothing while there are none. */
    private volatile int contentTopics;

    public TopicCache(int capacity, long maxBytes) {
        this.capacity = capacity;
        this.maxBytes = maxBytes;
    }

    /** The cache of a REST API with {@code config}; holding nothing when it is off (null). */
    public static TopicCache of(RestConfig config) {
        return config == null ? new TopicCache(1, 0) : new TopicCache(config.cacheCapacity(), config.cacheBytes());
    }

    /**
     * As {@link #of(RestConfig)}, with the caches of the node's start-up topics open (its pubsub topics, and the content
     * topics of {@code config}), as nwaku's REST caches them without a POST subscription.
     */
    public static TopicCache of(RestConfig config, Iterable<String> pubsubTopics) {
        TopicCache cache = of(config);
        if (config != null) {
            pubsubTopics.forEach(cache::open);
            config.contentTopics().forEach(t -> cache.open(contentKey(t)));
        }
        return cache;
    }

    /** The cache key of a content topic (auto subscriptions). */
    public static String contentKey(String contentTopic) {
        return CONTENT_PREFIX + contentTopic;
    }

    public synchronized void open(String topic) {
        if (topics.putIfAbsent(topic, new ArrayDeque<>()) == null && topic.startsWith(CONTENT_PREFIX)) {
            contentTopics++;
        }
    }

    /**
     * Opens the caches of {@code keys} at once, unless that would pass {@link #MAX_CONTENT_TOPICS}.
     *
     * @return the keys that were not open before (for a caller that has to undo), or null when nothing was opened
     */
    public synchronized List<String> openAll(List<String> keys) {
        List<String> added = keys.stream().distinct().filter(k -> !topics.containsKey(k)).toList();
        long content = added.stream().filter(k -> k.startsWith(CONTENT_PREFIX)).count();
        if (contentTopics + content > MAX_CONTENT_TOPICS) {
            return null;
        }
        added.forEach(this::open);
        return added;
    }

    public synchronized void close(String topic) {
        ArrayDeque<Envelope> queue = topics.remove(topic);
        if (queue != null) {
            queue.forEach(this::forget);
            if (topic.startsWith(CONTENT_PREFIX)) {
                contentTopics--;
            }
        }
    }

    public boolean hasContentTopics() {
        return contentTopics > 0;
    }

    /** The content topics with an open cache. */
    public synchronized List<String> contentTopics() {
        return topics.keySet().stream().filter(k -> k.startsWith(CONTENT_PREFIX))
                .map(k -> k.substring(CONTENT_PREFIX.length())).toList();
    }

    public synchronized boolean isOpen(String topic) {
        return topics.containsKey(topic);
    }

    /** Keeps {@code envelope} (retaining it) when {@code topic}'s cache is open; the caller keeps its own reference. */
    public synchronized void add(String topic, Envelope envelope) {
        ArrayDeque<Envelope> queue = topics.get(topic);
        if (queue == null || closed) {
            return;
        }
        int size = envelope.retainedBytes();
        if (queue.size() == capacity) {
            forget(queue.pollFirst());
            dropped++;
        }
        while (bytes + size > maxBytes && !queue.isEmpty()) {
            forget(queue.pollFirst());
            dropped++;
        }
        if (bytes + size > maxBytes) {
            dropped++; // other topics hold the budget
            return;
        }
        queue.addLast(envelope.retain());
        bytes += size;
        messages++;
    }

    /**
     * Returns and forgets the cached messages, oldest first; null when the topic's cache is not open. The caller owns
     * one reference to each envelope and releases it.
     */
    public synchronized List<Envelope> drain(String topic) {
        ArrayDeque<Envelope> queue = topics.get(topic);
        if (queue == null) {
            return null;
        }
        List<Envelope> out = new ArrayList<>(queue);
        for (Envelope e : queue) {
            bytes -= e.retainedBytes();
            messages--;
        }
        queue.clear();
        return out;
    }

    private void forget(Envelope envelope) {
        bytes -= envelope.retainedBytes();
        messages--;
        envelope.release();
    }

    /** Releases every kept message; nothing is kept from then on (the node is stopping). */
    @Override
    public synchronized void close() {
        closed = true;
        topics.values().forEach(queue -> {
            queue.forEach(this::forget);
            queue.clear();
        });
    }

    public synchronized long size() {
        return messages;
    }

    public synchronized long bytes() {
        return bytes;
    }

    public synchronized long dropped() {
        return dropped;
    }
}
