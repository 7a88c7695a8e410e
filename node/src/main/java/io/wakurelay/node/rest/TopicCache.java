package io.wakurelay.node.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Messages kept for topics subscribed over REST, for {@code GET /relay/v1/messages/{topic}} (nwaku's relay
 * cache). Bounded per topic: when full, the oldest message is dropped and counted.
 */
public final class TopicCache {
    private final int capacity;
    private final Map<String, ArrayDeque<ObjectNode>> topics = new ConcurrentHashMap<>();
    private final AtomicLong dropped = new AtomicLong();

    public TopicCache(int capacity) {
        this.capacity = capacity;
    }

    public void open(String topic) {
        topics.computeIfAbsent(topic, t -> new ArrayDeque<>());
    }

    public void close(String topic) {
        topics.remove(topic);
    }

    public boolean isOpen(String topic) {
        return topics.containsKey(topic);
    }

    public void add(String topic, ObjectNode message) {
        ArrayDeque<ObjectNode> queue = topics.get(topic);
        if (queue == null) {
            return;
        }
        synchronized (queue) {
            if (queue.size() == capacity) {
                queue.pollFirst();
                dropped.incrementAndGet();
            }
            queue.addLast(message);
        }
    }

    /** Returns and forgets the cached messages, oldest first; null when the topic is not subscribed. */
    public List<ObjectNode> drain(String topic) {
        ArrayDeque<ObjectNode> queue = topics.get(topic);
        if (queue == null) {
            return null;
        }
        synchronized (queue) {
            List<ObjectNode> out = new ArrayList<>(queue);
            queue.clear();
            return out;
        }
    }

    public long size() {
        long n = 0;
        for (ArrayDeque<ObjectNode> q : topics.values()) {
            synchronized (q) {
                n += q.size();
            }
        }
        return n;
    }

    public long dropped() {
        return dropped.get();
    }
}
