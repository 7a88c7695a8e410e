package io.wakurelay.node.rest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Messages kept for topics subscribed over REST, for {@code GET /relay/v1/messages/{topic}} (nwaku's relay
 * cache), each as its rendered JSON. Bounded per topic by count ({@code capacity}, oldest dropped first) and for all
 * topics together by bytes ({@code maxBytes}): a client that polls slowly, or never, holds at most that much. A
 * message that does not fit even after its own topic's older messages are dropped is itself dropped; every drop is
 * counted.
 */
public final class TopicCache {
    private final int capacity;
    private final long maxBytes;
    private final Map<String, ArrayDeque<byte[]>> topics = new HashMap<>();
    private long bytes;
    private long messages;
    private long dropped;

    public TopicCache(int capacity, long maxBytes) {
        this.capacity = capacity;
        this.maxBytes = maxBytes;
    }

    /** The cache of a REST API with {@code config}; holding nothing when it is off (null). */
    public static TopicCache of(RestConfig config) {
        return config == null ? new TopicCache(1, 0) : new TopicCache(config.cacheCapacity(), config.cacheBytes());
    }

    public synchronized void open(String topic) {
        topics.computeIfAbsent(topic, t -> new ArrayDeque<>());
    }

    public synchronized void close(String topic) {
        ArrayDeque<byte[]> queue = topics.remove(topic);
        if (queue != null) {
            queue.forEach(this::forget);
        }
    }

    public synchronized boolean isOpen(String topic) {
        return topics.containsKey(topic);
    }

    public synchronized void add(String topic, byte[] json) {
        ArrayDeque<byte[]> queue = topics.get(topic);
        if (queue == null) {
            return;
        }
        if (queue.size() == capacity) {
            forget(queue.pollFirst());
            dropped++;
        }
        while (bytes + json.length > maxBytes && !queue.isEmpty()) {
            forget(queue.pollFirst());
            dropped++;
        }
        if (bytes + json.length > maxBytes) {
            dropped++; // other topics hold the budget
            return;
        }
        queue.addLast(json);
        bytes += json.length;
        messages++;
    }

    /** Returns and forgets the cached messages (their JSON), oldest first; null when the topic is not subscribed. */
    public synchronized List<byte[]> drain(String topic) {
        ArrayDeque<byte[]> queue = topics.get(topic);
        if (queue == null) {
            return null;
        }
        List<byte[]> out = new ArrayList<>(queue);
        queue.forEach(this::forget);
        queue.clear();
        return out;
    }

    private void forget(byte[] json) {
        bytes -= json.length;
        messages--;
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
